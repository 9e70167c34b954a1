// The fused tile scan's shared scratch (sat_fused_scan.comp, which #includes it before
// sat_fused_store.glsl): the bottom rows and the staged stores take turns in it (an array of
// their own for the stores cost NVIDIA's GL workgroups an SM).
// Shared memory decides how many workgroups an SM holds: NVIDIA's GL leaves an SM about 50 KB of
// it (probed on the H100 with per-workgroup SM traces, commit 2d8ac9a: 2 workgroups of 256 at
// 18.4 KB, 3 at 13.8 to 16.1, 4 at 11.5, 5 at 9.2). As uvec3 (16 bytes a slot on NVIDIA), padded,
// the scratch took 18.4 KB; as 3 planes of uint (R, G, B: 12 bytes a slot) it takes 12.4 KB, so
// with the rest of a tile scan's shared memory 3 workgroups fit where 2 did.
// Slot (w, k), team w's for tile column k < TILE_W, is word w * PLANE_W + PAD32(k) of each plane:
// a lane's 4 adjacent columns (lane * 4 + i) and a row read along k both fall on 32 banks.
#define PAD32(k) ((k) + ((k) >> 5))
#define PLANE_W (TILE_W + TILE_W / 32)
shared uint s_plane[3][TEAMS * PLANE_W];
uvec3 slot_get(uint i) {
  return uvec3(s_plane[0][i], s_plane[1][i], s_plane[2][i]);
}
void slot_put(uint i, uvec3 v) {
  s_plane[0][i] = v.x;
  s_plane[1][i] = v.y;
  s_plane[2][i] = v.z;
}
uint slot_index(uint w, uint k) {
  return w * uint(PLANE_W) + PAD32(k);
}
uvec3 bottom_get(uint w, uint k) {
  return slot_get(slot_index(w, k));
}
void bottom_put(uint w, uint k, uvec3 v) {
  slot_put(slot_index(w, k), v);
}
