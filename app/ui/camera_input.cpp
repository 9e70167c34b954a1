#include "ui/camera_input.hpp"

#define GLFW_INCLUDE_NONE  // key codes only; no GL header
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>

namespace demo {

const std::vector<KeyHelp>& key_help() {
  static const std::vector<KeyHelp> k = {
      {"F1", "this help (Esc closes it)"},
      {"H", "hide / show the panels"},
      {"T", "timing overlay on / off"},
      {"R", "reset the view (camera and focal distance)"},
      {"Space", "pause / run the animation"},
      {"P, F12", "screenshot of the scene (without panels)"},
      {"Esc", "close help, else quit"},
  };
  return k;
}

const std::vector<KeyHelp>& mouse_help() {
  static const std::vector<KeyHelp> m = {
      {"left drag", "orbit around the target"},
      {"right / middle drag", "pan"},
      {"wheel", "zoom towards the cursor (focal distance follows)"},
      {"left click", "focus on the clicked point"},
  };
  return m;
}

void handle_camera_input(Camera* camera, Settings* settings, Requests* req,
                         const std::vector<int>& keys, int fb_width, int fb_height, int win_width,
                         int win_height) {
  const ImGuiIO& io = ImGui::GetIO();
  if (!io.WantCaptureMouse) {
    const float sx = static_cast<float>(fb_width) / std::max(win_width, 1),
                sy = static_cast<float>(fb_height) / std::max(win_height, 1);
    if (ImGui::IsMouseDragging(ImGuiMouseButton_Left))
      camera->orbit(io.MouseDelta.x, io.MouseDelta.y);
    if (ImGui::IsMouseDragging(ImGuiMouseButton_Right) ||
        ImGui::IsMouseDragging(ImGuiMouseButton_Middle))
      camera->pan(io.MouseDelta.x, io.MouseDelta.y);
    if (ImGui::IsMousePosValid()) {
      req->hover = true;
      req->hover_x = static_cast<int>(io.MousePos.x * sx);
      req->hover_y = fb_height - 1 - static_cast<int>(io.MousePos.y * sy);
    }
    if (io.MouseWheel != 0) {
      // The focal distance scales with the orbit distance, so what was in focus at the target
      // stays in focus (approximately: exactly for a point on the cursor ray at the target's
      // depth).
      const float f =
          camera->zoom(io.MouseWheel, camera->ray_through(io.MousePos.x, io.MousePos.y,
                                                          static_cast<float>(win_width),
                                                          static_cast<float>(win_height)));
      settings->focus_distance = std::clamp(settings->focus_distance * f, 0.5f, 100.0f);
    }
    // A click (press and release without dragging) focuses on the clicked point.
    if (ImGui::IsMouseReleased(ImGuiMouseButton_Left) && io.MouseDragMaxDistanceSqr[0] < 9.0f) {
      req->focus_at_pixel = true;
      req->focus_x = static_cast<int>(io.MousePos.x * sx);
      req->focus_y = fb_height - 1 - static_cast<int>(io.MousePos.y * sy);
    }
  }
  // Keys typed into a text field belong to it; otherwise every press counts, however short.
  if (io.WantTextInput) return;
  for (int key : keys) {
    switch (key) {
      case GLFW_KEY_F12:
      case GLFW_KEY_P:
        req->screenshot = true;
        break;
      case GLFW_KEY_H:
        settings->show_ui = !settings->show_ui;
        break;
      case GLFW_KEY_T:
        settings->show_overlay = !settings->show_overlay;
        break;
      case GLFW_KEY_F1:
        settings->show_help = !settings->show_help;
        break;
      case GLFW_KEY_R:
        camera->reset();
        settings->focus_distance = Settings{}.focus_distance;
        break;
      case GLFW_KEY_SPACE:
        settings->animate = !settings->animate;
        break;
      case GLFW_KEY_ESCAPE:
        if (settings->show_help)
          settings->show_help = false;
        else
          req->quit = true;
        break;
      default:
        break;
    }
  }
}

}  // namespace demo
