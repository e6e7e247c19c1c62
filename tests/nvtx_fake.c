/* tests/nvtx_fake.c — a stand-in for the NVTX library (libnvtx3interop):
   nvtxRangePushA and nvtxRangePop as it exports them, recording each call
   with its thread's depth, so that test_profile (TILE_NVTX=<this library>)
   can check the ranges a profile makes. nvtx_fake_log() returns the record:
   one line per call, "+name depth" or "- depth". */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static char nvtx_log[1 << 16];
static size_t nvtx_len;
static pthread_mutex_t nvtx_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local int nvtx_depth;

static void nvtx_append(const char *line) {
    pthread_mutex_lock(&nvtx_lock);
    size_t n = strlen(line);
    if (nvtx_len + n + 1 < sizeof nvtx_log) {
        memcpy(nvtx_log + nvtx_len, line, n + 1);
        nvtx_len += n;
    }
    pthread_mutex_unlock(&nvtx_lock);
}
int nvtxRangePushA(const char *message) {
    char line[128];
    snprintf(line, sizeof line, "+%s %d\n", message ? message : "(null)", nvtx_depth++);
    nvtx_append(line);
    return nvtx_depth - 1;
}
int nvtxRangePop(void) {
    char line[32];
    snprintf(line, sizeof line, "- %d\n", --nvtx_depth);
    nvtx_append(line);
    return nvtx_depth;
}
const char *nvtx_fake_log(void) { return nvtx_log; }
