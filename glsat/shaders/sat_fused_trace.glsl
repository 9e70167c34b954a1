// Measurement only (glsatbench --trace-phased, GlSatBuilder::set_phase_trace): the one-dispatch
// fused builds (sat_fused_phased.comp, sat_fused_single.comp, which #include it and enable
// GL_ARB_shader_clock and GL_NV_shader_thread_group under PHASE_TRACE) record per workgroup three
// words: the SM's cycle counter (low 32 bits) at 8 marks, then its SM, phase and ticket. Marks 0
// and 3 are the workgroup's start and end; the includer says what 1, 2 and 4-7 are. The SMs'
// counters are not synchronised, so times compare within an SM only (NVIDIA's GL offers no device
// clock to shaders: GL_EXT_shader_realtime_clock is refused). scripts/phased_trace.py reads them.
#ifdef PHASE_TRACE
layout(std430, binding = 5) writeonly buffer Trace {
  uvec4 trace[];
};
uvec4 g_ck[2];
void trace_mark(int k) {
  g_ck[k / 4][k % 4] = clock2x32ARB().x;
}
#ifdef GL_NV_shader_thread_group
#define TRACE_SM gl_SMIDNV
#else
#define TRACE_SM 0xFFFFFFFFu
#endif
#define TRACE_MARK(k) trace_mark(k)
// Mark 3 and the workgroup's record; every invocation calls it last.
void trace_end(int ticket, uint phase) {
  trace_mark(3);
  if (gl_LocalInvocationIndex == 0u) {
    trace[3 * ticket] = g_ck[0];
    trace[3 * ticket + 1] = g_ck[1];
    trace[3 * ticket + 2] = uvec4(TRACE_SM, phase, uint(ticket), 1u);
  }
}
#define TRACE_END(ticket, phase) trace_end(ticket, phase)
#else
#define TRACE_MARK(k)
#define TRACE_END(ticket, phase)
#endif
