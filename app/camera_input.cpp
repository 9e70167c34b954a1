#include "camera_input.hpp"

#define GLFW_INCLUDE_NONE  // key codes only; no GL header
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>

namespace demo {

void handle_camera_input(Camera* camera, Settings* settings, Requests* req, int fb_width,
                         int fb_height, int win_width, int win_height) {
  const ImGuiIO& io = ImGui::GetIO();
  if (!io.WantCaptureMouse) {
    const float sx = static_cast<float>(fb_width) / std::max(win_width, 1),
                sy = static_cast<float>(fb_height) / std::max(win_height, 1);
    if (ImGui::IsMouseDragging(ImGuiMouseButton_Left))
      camera->orbit(io.MouseDelta.x, io.MouseDelta.y);
    if (ImGui::IsMouseDragging(ImGuiMouseButton_Right) ||
        ImGui::IsMouseDragging(ImGuiMouseButton_Middle))
      camera->pan(io.MouseDelta.x, io.MouseDelta.y);
    if (io.MouseWheel != 0) camera->zoom(io.MouseWheel);
    if (ImGui::IsMousePosValid()) {
      req->hover = true;
      req->hover_x = static_cast<int>(io.MousePos.x * sx);
      req->hover_y = fb_height - 1 - static_cast<int>(io.MousePos.y * sy);
    }
    // A click (press and release without dragging) focuses on the clicked point.
    if (ImGui::IsMouseReleased(ImGuiMouseButton_Left) && io.MouseDragMaxDistanceSqr[0] < 9.0f) {
      req->focus_at_pixel = true;
      req->focus_x = static_cast<int>(io.MousePos.x * sx);
      req->focus_y = fb_height - 1 - static_cast<int>(io.MousePos.y * sy);
    }
  }
  if (!io.WantCaptureKeyboard) {
    if (ImGui::IsKeyPressed(GLFW_KEY_F12) || ImGui::IsKeyPressed(GLFW_KEY_P))
      req->screenshot = true;
    if (ImGui::IsKeyPressed(GLFW_KEY_H)) settings->show_ui = !settings->show_ui;
    if (ImGui::IsKeyPressed(GLFW_KEY_SPACE)) settings->animate = !settings->animate;
    if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE)) req->quit = true;
  }
}

}  // namespace demo
