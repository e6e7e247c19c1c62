/* tile_backend_llvm.c — >>llvm: tile IR to PTX through LLVM's NVPTX target.

   USAGE: add this one file to a program's build, next to the C file that
   defines TILE_IMPLEMENTATION (link with -ldl). It registers itself from a
   constructor; kernels then compile through LLVM whenever LLVM loads, and
   through NVRTC otherwise. TILE_BACKEND=llvm|nvrtc|interp forces a back end,
   TILE_LLVM=/path/libLLVM.so picks the library, TILE_DUMP=llir prints the
   optimized LLVM IR and TILE_DUMP=times the time of each stage.

   Why it is shaped this way: the lowering (tile/lower.h) is written once
   against the tile__emitter interface; this file is a second emitter, one
   that builds LLVM IR through the LLVM-C API instead of printing CUDA C.
   Nothing here includes an LLVM header (neither machine has them): the few
   opaque types are declared below, and every function comes from one
   X-macro table loaded with dlopen, as tile/cuda.h does for the driver.
   Virtual registers are SSA values; variables (`var`) are allocas in the
   entry block, which SROA/mem2reg in the optimizer turn back into SSA.
   Narrow floats travel as their bits (i16, i8) and compute in f32, with
   the same PTX conversions as the CUDA C emitter's prelude (inline asm);
   math functions come from NVIDIA's libdevice, loaded lazily so that only
   the functions a kernel calls are read and linked, then internalized
   (sqrt excepted: llvm.sqrt is sqrt.rn, libdevice's sqrtf is approximate);
   f8 conversions are built from integer and f32 ops, as the prelude's are;
   tensor-core (ldmatrix, mma.sync) and cp.async instructions are inline
   PTX with side effects, the warp-wide ones convergent.
   The kernel has the PTX_Kernel calling convention and its .maxntid from
   !nvvm.annotations (the "nvvm.maxntid" attribute from LLVM 20). Targets:
   sm_90a/+ptx80 from LLVM 17; LLVM 15 and 16 get sm_86/+ptx75 and their
   PTX header is raised to 8.0/sm_90a afterwards when the target is Hopper.

   Stages (TILE_DUMP=times): lower (the lowering building LLVM IR), verify,
   link (the libdevice functions the kernel calls, only when it calls
   one), opt (default<O1>, TILE_LLVM_OPT), emit (PTX, the code generator
   at TILE_LLVM_CODEGEN's level, Default).

   A feature this file lacks makes the kernel fail with TILE_ERR_COMPILE
   naming it when TILE_BACKEND=llvm, and go to NVRTC otherwise. */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime */
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tile.h"
/* The private headers, for their types and small static helpers only: the
   library's own copy of every function is in the TILE_IMPLEMENTATION file. */
#define TILE__IR_TYPES_ONLY
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-variable"
#pragma GCC diagnostic ignored "-Wunused-const-variable"
#endif
#include "tile/ir.h"
#include "tile/emit.h"    /* the emitter interface; the lowering itself stays in the library */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#pragma GCC diagnostic ignored "-Wunused-function"  /* to the end: unused static copies are reported there */
#endif

/* ---- LLVM-C, declared by hand -------------------------------------------------------
   Opaque handles and the enum values we pass, as llvm-c/Core.h has them
   (stable since LLVM 15). */
typedef struct LLVMOpaqueContext *LLVMContextRef;
typedef struct LLVMOpaqueModule *LLVMModuleRef;
typedef struct LLVMOpaqueType *LLVMTypeRef;
typedef struct LLVMOpaqueValue *LLVMValueRef;
typedef struct LLVMOpaqueBasicBlock *LLVMBasicBlockRef;
typedef struct LLVMOpaqueBuilder *LLVMBuilderRef;
typedef struct LLVMOpaqueMetadata *LLVMMetadataRef;
typedef struct LLVMOpaqueMemoryBuffer *LLVMMemoryBufferRef;
typedef struct LLVMOpaqueTargetData *LLVMTargetDataRef;
typedef struct LLVMOpaqueTargetMachine *LLVMTargetMachineRef;
typedef struct LLVMTarget *LLVMTargetRef;
typedef struct LLVMOpaquePassBuilderOptions *LLVMPassBuilderOptionsRef;
typedef struct LLVMOpaqueError *LLVMErrorRef;
typedef struct LLVMOpaqueAttributeRef *LLVMAttributeRef;
typedef int LLVMBool;

enum { LLVM_ExternalLinkage = 0, LLVM_LinkOnceODRLinkage = 3, LLVM_InternalLinkage = 8, LLVM_PrivateLinkage = 9 };
enum { LLVM_IntEQ = 32, LLVM_IntNE, LLVM_IntUGT, LLVM_IntUGE, LLVM_IntULT, LLVM_IntULE, LLVM_IntSGT, LLVM_IntSGE, LLVM_IntSLT, LLVM_IntSLE };
enum { LLVM_RealOEQ = 1, LLVM_RealOGT = 2, LLVM_RealOGE = 3, LLVM_RealOLT = 4, LLVM_RealOLE = 5, LLVM_RealUNO = 8, LLVM_RealUNE = 14 };
enum { LLVM_RMWXchg = 0, LLVM_RMWAdd = 1, LLVM_RMWAnd = 3, LLVM_RMWOr = 5, LLVM_RMWXor = 6, LLVM_RMWMax = 7, LLVM_RMWMin = 8,
       LLVM_RMWUMax = 9, LLVM_RMWUMin = 10, LLVM_RMWFAdd = 11 };
enum { LLVM_Monotonic = 2, LLVM_SeqCst = 7 };
enum { LLVM_PTXKernelCallConv = 71 };
enum { LLVM_ReturnStatusAction = 2 };
enum { LLVM_CodeGenDefault = 2, LLVM_RelocDefault = 0, LLVM_CodeModelDefault = 0, LLVM_AssemblyFile = 0 };

/* X(return type, name, (parameters)); OPT entries may be missing (older LLVM). */
#define TILE__LLVM_FUNCS(X, OPT)                                                                                            \
    X(LLVMContextRef, LLVMContextCreate, (void))                                                                           \
    X(void, LLVMContextDispose, (LLVMContextRef))                                                                          \
    X(LLVMModuleRef, LLVMModuleCreateWithNameInContext, (const char *, LLVMContextRef))                                    \
    X(void, LLVMDisposeModule, (LLVMModuleRef))                                                                            \
    X(void, LLVMSetTarget, (LLVMModuleRef, const char *))                                                                  \
    X(void, LLVMSetModuleDataLayout, (LLVMModuleRef, LLVMTargetDataRef))                                                   \
    X(char *, LLVMPrintModuleToString, (LLVMModuleRef))                                                                    \
    X(LLVMMemoryBufferRef, LLVMWriteBitcodeToMemoryBuffer, (LLVMModuleRef))                                                \
    X(void, LLVMDisposeMessage, (char *))                                                                                  \
    X(LLVMTypeRef, LLVMInt1TypeInContext, (LLVMContextRef))                                                                \
    X(LLVMTypeRef, LLVMInt8TypeInContext, (LLVMContextRef))                                                                \
    X(LLVMTypeRef, LLVMInt16TypeInContext, (LLVMContextRef))                                                               \
    X(LLVMTypeRef, LLVMInt32TypeInContext, (LLVMContextRef))                                                               \
    X(LLVMTypeRef, LLVMInt64TypeInContext, (LLVMContextRef))                                                               \
    X(LLVMTypeRef, LLVMIntTypeInContext, (LLVMContextRef, unsigned))                                                       \
    X(LLVMTypeRef, LLVMFloatTypeInContext, (LLVMContextRef))                                                               \
    X(LLVMTypeRef, LLVMDoubleTypeInContext, (LLVMContextRef))                                                              \
    X(LLVMTypeRef, LLVMVoidTypeInContext, (LLVMContextRef))                                                                \
    X(LLVMTypeRef, LLVMPointerTypeInContext, (LLVMContextRef, unsigned))                                                   \
    X(LLVMTypeRef, LLVMFunctionType, (LLVMTypeRef, LLVMTypeRef *, unsigned, LLVMBool))                                    \
    X(LLVMTypeRef, LLVMVectorType, (LLVMTypeRef, unsigned))                                                                \
    X(LLVMTypeRef, LLVMArrayType, (LLVMTypeRef, unsigned))                                                                 \
    X(LLVMTypeRef, LLVMStructTypeInContext, (LLVMContextRef, LLVMTypeRef *, unsigned, LLVMBool))                          \
    X(LLVMValueRef, LLVMConstInt, (LLVMTypeRef, unsigned long long, LLVMBool))                                             \
    X(LLVMValueRef, LLVMIsAConstantInt, (LLVMValueRef))                                                                    \
    X(long long, LLVMConstIntGetSExtValue, (LLVMValueRef))                                                                 \
    X(LLVMValueRef, LLVMConstNull, (LLVMTypeRef))                                                                          \
    X(LLVMValueRef, LLVMGetUndef, (LLVMTypeRef))                                                                           \
    X(LLVMValueRef, LLVMGetParam, (LLVMValueRef, unsigned))                                                                \
    X(LLVMValueRef, LLVMAddFunction, (LLVMModuleRef, const char *, LLVMTypeRef))                                           \
    X(LLVMValueRef, LLVMGetNamedFunction, (LLVMModuleRef, const char *))                                                   \
    X(void, LLVMSetFunctionCallConv, (LLVMValueRef, unsigned))                                                             \
    X(void, LLVMSetLinkage, (LLVMValueRef, int))                                                                           \
    X(LLVMValueRef, LLVMAddGlobalInAddressSpace, (LLVMModuleRef, LLVMTypeRef, const char *, unsigned))                     \
    X(void, LLVMSetAlignment, (LLVMValueRef, unsigned))                                                                    \
    X(void, LLVMSetVolatile, (LLVMValueRef, LLVMBool))                                                                     \
    X(LLVMValueRef, LLVMGetFirstFunction, (LLVMModuleRef))                                                                 \
    X(LLVMValueRef, LLVMGetNextFunction, (LLVMValueRef))                                                                   \
    X(LLVMBool, LLVMIsDeclaration, (LLVMValueRef))                                                                         \
    X(LLVMAttributeRef, LLVMCreateStringAttribute, (LLVMContextRef, const char *, unsigned, const char *, unsigned))      \
    X(void, LLVMAddAttributeAtIndex, (LLVMValueRef, unsigned, LLVMAttributeRef))                                          \
    X(void, LLVMAddCallSiteAttribute, (LLVMValueRef, unsigned, LLVMAttributeRef))                                         \
    X(unsigned, LLVMGetEnumAttributeKindForName, (const char *, size_t))                                                   \
    X(LLVMAttributeRef, LLVMCreateEnumAttribute, (LLVMContextRef, unsigned, uint64_t))                                     \
    X(LLVMAttributeRef, LLVMCreateTypeAttribute, (LLVMContextRef, unsigned, LLVMTypeRef))                                  \
    X(LLVMMetadataRef, LLVMMDStringInContext2, (LLVMContextRef, const char *, size_t))                                     \
    X(LLVMMetadataRef, LLVMValueAsMetadata, (LLVMValueRef))                                                                \
    X(LLVMMetadataRef, LLVMMDNodeInContext2, (LLVMContextRef, LLVMMetadataRef *, size_t))                                  \
    X(LLVMValueRef, LLVMMetadataAsValue, (LLVMContextRef, LLVMMetadataRef))                                                \
    X(void, LLVMAddNamedMetadataOperand, (LLVMModuleRef, const char *, LLVMValueRef))                                     \
    X(LLVMBasicBlockRef, LLVMAppendBasicBlockInContext, (LLVMContextRef, LLVMValueRef, const char *))                     \
    X(LLVMBasicBlockRef, LLVMGetInsertBlock, (LLVMBuilderRef))                                                             \
    X(LLVMBuilderRef, LLVMCreateBuilderInContext, (LLVMContextRef))                                                        \
    X(void, LLVMDisposeBuilder, (LLVMBuilderRef))                                                                          \
    X(void, LLVMPositionBuilderAtEnd, (LLVMBuilderRef, LLVMBasicBlockRef))                                                 \
    X(LLVMValueRef, LLVMBuildRetVoid, (LLVMBuilderRef))                                                                    \
    X(LLVMValueRef, LLVMBuildBr, (LLVMBuilderRef, LLVMBasicBlockRef))                                                      \
    X(LLVMValueRef, LLVMBuildCondBr, (LLVMBuilderRef, LLVMValueRef, LLVMBasicBlockRef, LLVMBasicBlockRef))                 \
    X(LLVMValueRef, LLVMBuildPhi, (LLVMBuilderRef, LLVMTypeRef, const char *))                                             \
    X(void, LLVMAddIncoming, (LLVMValueRef, LLVMValueRef *, LLVMBasicBlockRef *, unsigned))                               \
    X(LLVMValueRef, LLVMBuildAlloca, (LLVMBuilderRef, LLVMTypeRef, const char *))                                          \
    X(LLVMValueRef, LLVMBuildLoad2, (LLVMBuilderRef, LLVMTypeRef, LLVMValueRef, const char *))                             \
    X(LLVMValueRef, LLVMBuildStore, (LLVMBuilderRef, LLVMValueRef, LLVMValueRef))                                         \
    X(LLVMValueRef, LLVMBuildGEP2, (LLVMBuilderRef, LLVMTypeRef, LLVMValueRef, LLVMValueRef *, unsigned, const char *))   \
    X(LLVMValueRef, LLVMBuildStructGEP2, (LLVMBuilderRef, LLVMTypeRef, LLVMValueRef, unsigned, const char *))             \
    X(LLVMValueRef, LLVMBuildAdd, (LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *))                             \
    X(LLVMValueRef, LLVMBuildSub, (LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *))                             \
    X(LLVMValueRef, LLVMBuildMul, (LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *))                             \
    X(LLVMValueRef, LLVMBuildSDiv, (LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *))                            \
    X(LLVMValueRef, LLVMBuildUDiv, (LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *))                            \
    X(LLVMValueRef, LLVMBuildSRem, (LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *))                            \
    X(LLVMValueRef, LLVMBuildURem, (LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *))                            \
    X(LLVMValueRef, LLVMBuildFAdd, (LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *))                            \
    X(LLVMValueRef, LLVMBuildFSub, (LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *))                            \
    X(LLVMValueRef, LLVMBuildFMul, (LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *))                            \
    X(LLVMValueRef, LLVMBuildFDiv, (LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *))                            \
    X(LLVMValueRef, LLVMBuildFNeg, (LLVMBuilderRef, LLVMValueRef, const char *))                                          \
    X(LLVMValueRef, LLVMBuildAnd, (LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *))                             \
    X(LLVMValueRef, LLVMBuildOr, (LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *))                              \
    X(LLVMValueRef, LLVMBuildXor, (LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *))                             \
    X(LLVMValueRef, LLVMBuildShl, (LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *))                             \
    X(LLVMValueRef, LLVMBuildLShr, (LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *))                            \
    X(LLVMValueRef, LLVMBuildAShr, (LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *))                            \
    X(LLVMValueRef, LLVMBuildNot, (LLVMBuilderRef, LLVMValueRef, const char *))                                           \
    X(LLVMValueRef, LLVMBuildICmp, (LLVMBuilderRef, int, LLVMValueRef, LLVMValueRef, const char *))                       \
    X(LLVMValueRef, LLVMBuildFCmp, (LLVMBuilderRef, int, LLVMValueRef, LLVMValueRef, const char *))                       \
    X(LLVMValueRef, LLVMBuildSelect, (LLVMBuilderRef, LLVMValueRef, LLVMValueRef, LLVMValueRef, const char *))            \
    X(LLVMValueRef, LLVMBuildZExt, (LLVMBuilderRef, LLVMValueRef, LLVMTypeRef, const char *))                             \
    X(LLVMValueRef, LLVMBuildSExt, (LLVMBuilderRef, LLVMValueRef, LLVMTypeRef, const char *))                             \
    X(LLVMValueRef, LLVMBuildTrunc, (LLVMBuilderRef, LLVMValueRef, LLVMTypeRef, const char *))                            \
    X(LLVMValueRef, LLVMBuildFPExt, (LLVMBuilderRef, LLVMValueRef, LLVMTypeRef, const char *))                            \
    X(LLVMValueRef, LLVMBuildFPTrunc, (LLVMBuilderRef, LLVMValueRef, LLVMTypeRef, const char *))                          \
    X(LLVMValueRef, LLVMBuildSIToFP, (LLVMBuilderRef, LLVMValueRef, LLVMTypeRef, const char *))                           \
    X(LLVMValueRef, LLVMBuildUIToFP, (LLVMBuilderRef, LLVMValueRef, LLVMTypeRef, const char *))                           \
    X(LLVMValueRef, LLVMBuildFPToSI, (LLVMBuilderRef, LLVMValueRef, LLVMTypeRef, const char *))                           \
    X(LLVMValueRef, LLVMBuildFPToUI, (LLVMBuilderRef, LLVMValueRef, LLVMTypeRef, const char *))                           \
    X(LLVMValueRef, LLVMBuildBitCast, (LLVMBuilderRef, LLVMValueRef, LLVMTypeRef, const char *))                          \
    X(LLVMValueRef, LLVMBuildAddrSpaceCast, (LLVMBuilderRef, LLVMValueRef, LLVMTypeRef, const char *))                    \
    X(LLVMValueRef, LLVMBuildPtrToInt, (LLVMBuilderRef, LLVMValueRef, LLVMTypeRef, const char *))                         \
    X(LLVMValueRef, LLVMBuildIntToPtr, (LLVMBuilderRef, LLVMValueRef, LLVMTypeRef, const char *))                         \
    X(LLVMValueRef, LLVMBuildExtractElement, (LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *))                  \
    X(LLVMValueRef, LLVMBuildInsertElement, (LLVMBuilderRef, LLVMValueRef, LLVMValueRef, LLVMValueRef, const char *))     \
    X(LLVMValueRef, LLVMBuildExtractValue, (LLVMBuilderRef, LLVMValueRef, unsigned, const char *))                        \
    X(LLVMValueRef, LLVMBuildAtomicRMW, (LLVMBuilderRef, int, LLVMValueRef, LLVMValueRef, int, LLVMBool))                 \
    X(LLVMValueRef, LLVMBuildAtomicCmpXchg, (LLVMBuilderRef, LLVMValueRef, LLVMValueRef, LLVMValueRef, int, int, LLVMBool)) \
    X(LLVMValueRef, LLVMBuildFence, (LLVMBuilderRef, int, LLVMBool, const char *))                                        \
    X(LLVMValueRef, LLVMBuildCall2, (LLVMBuilderRef, LLVMTypeRef, LLVMValueRef, LLVMValueRef *, unsigned, const char *))  \
    X(LLVMValueRef, LLVMBuildGlobalStringPtr, (LLVMBuilderRef, const char *, const char *))                              \
    X(LLVMValueRef, LLVMGetInlineAsm, (LLVMTypeRef, const char *, size_t, const char *, size_t, LLVMBool, LLVMBool, int, LLVMBool)) \
    X(LLVMBool, LLVMVerifyModule, (LLVMModuleRef, int, char **))                                                           \
    X(LLVMBool, LLVMCreateMemoryBufferWithContentsOfFile, (const char *, LLVMMemoryBufferRef *, char **))                 \
    X(LLVMMemoryBufferRef, LLVMCreateMemoryBufferWithMemoryRange, (const char *, size_t, const char *, LLVMBool))          \
    X(LLVMBool, LLVMGetBitcodeModuleInContext2, (LLVMContextRef, LLVMMemoryBufferRef, LLVMModuleRef *))                   \
    X(LLVMBool, LLVMLinkModules2, (LLVMModuleRef, LLVMModuleRef))                                                          \
    X(const char *, LLVMGetBufferStart, (LLVMMemoryBufferRef))                                                             \
    X(size_t, LLVMGetBufferSize, (LLVMMemoryBufferRef))                                                                    \
    X(void, LLVMDisposeMemoryBuffer, (LLVMMemoryBufferRef))                                                                \
    X(void, LLVMInitializeNVPTXTargetInfo, (void))                                                                         \
    X(void, LLVMInitializeNVPTXTarget, (void))                                                                             \
    X(void, LLVMInitializeNVPTXTargetMC, (void))                                                                           \
    X(void, LLVMInitializeNVPTXAsmPrinter, (void))                                                                         \
    X(LLVMBool, LLVMGetTargetFromTriple, (const char *, LLVMTargetRef *, char **))                                        \
    X(LLVMTargetMachineRef, LLVMCreateTargetMachine, (LLVMTargetRef, const char *, const char *, const char *, int, int, int)) \
    X(void, LLVMDisposeTargetMachine, (LLVMTargetMachineRef))                                                              \
    X(LLVMTargetDataRef, LLVMCreateTargetDataLayout, (LLVMTargetMachineRef))                                               \
    X(void, LLVMDisposeTargetData, (LLVMTargetDataRef))                                                                    \
    X(LLVMBool, LLVMTargetMachineEmitToMemoryBuffer, (LLVMTargetMachineRef, LLVMModuleRef, int, char **, LLVMMemoryBufferRef *)) \
    X(LLVMPassBuilderOptionsRef, LLVMCreatePassBuilderOptions, (void))                                                    \
    X(void, LLVMDisposePassBuilderOptions, (LLVMPassBuilderOptionsRef))                                                    \
    X(LLVMErrorRef, LLVMRunPasses, (LLVMModuleRef, const char *, LLVMTargetMachineRef, LLVMPassBuilderOptionsRef))       \
    X(char *, LLVMGetErrorMessage, (LLVMErrorRef))                                                                         \
    X(void, LLVMDisposeErrorMessage, (char *))                                                                             \
    OPT(void, LLVMGetVersion, (unsigned *, unsigned *, unsigned *))

typedef struct tile__llvm_api {
#define TILE__LL_FIELD(ret, name, args) ret(*name) args;
    TILE__LLVM_FUNCS(TILE__LL_FIELD, TILE__LL_FIELD)
#undef TILE__LL_FIELD
} tile__llvm_api;
static tile__llvm_api L;

/* ---- loading: once per process --------------------------------------------------------
   TILE_LLVM, else the newest libLLVM*.so* of version 15 or later in the
   usual directories (the loader's own search last). */
static pthread_once_t tile__ll_once = PTHREAD_ONCE_INIT;
static int tile__ll_ok;
static int tile__ll_knob;      /* TILE_LLVM is set and names no usable LLVM */
static unsigned tile__ll_major, tile__ll_minor, tile__ll_patch;   /* the libLLVM loaded; minor and patch from LLVM 16 */
static char tile__ll_why[1024], tile__ll_path[512];
static LLVMMemoryBufferRef tile__ll_libdevice; /* libdevice.10.bc's bytes, read once */
static pthread_mutex_t tile__ll_libdevice_lock = PTHREAD_MUTEX_INITIALIZER;

/* a string copied into n bytes, cut short if it must be */
static void tile__ll_copy(char *dst, size_t n, const char *src) {
    size_t len = strlen(src);
    if (len >= n) len = n - 1;
    memcpy(dst, src, len);
    dst[len] = 0;
}
/* the major version in a file name: libLLVM-17.so.1, libLLVM.so.19.1 */
static unsigned tile__ll_name_version(const char *name) {
    const char *p = strstr(name, "libLLVM");
    if (!p) return 0;
    for (p += 7; *p; p++)
        if (*p >= '0' && *p <= '9') return (unsigned)strtoul(p, NULL, 10);
    return 0;
}
static void tile__ll_search(char *best, size_t n, unsigned *best_v) {
    static const char *const dirs[] = {"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/lib", NULL};
    char cand[512];
    for (int d = 0; dirs[d]; d++)
        for (unsigned v = 30; v >= 15; v--) {
            const char *forms[] = {"%s/libLLVM-%u.so.1", "%s/libLLVM-%u.so", "%s/libLLVM.so.%u.1", "%s/libLLVM.so.%u", NULL};
            for (int f = 0; forms[f] && v > *best_v; f++) {
                snprintf(cand, sizeof cand, forms[f], dirs[d], v);
                FILE *fp = fopen(cand, "rb");
                if (fp) {
                    fclose(fp);
                    tile__ll_copy(best, n, cand);
                    *best_v = v;
                }
            }
        }
    for (unsigned v = 30; v >= 15 && v > *best_v; v--) {
        snprintf(cand, sizeof cand, "/usr/lib/llvm-%u/lib/libLLVM.so", v);
        FILE *fp = fopen(cand, "rb");
        if (fp) {
            fclose(fp);
            tile__ll_copy(best, n, cand);
            *best_v = v;
        }
    }
}
static const tile__knob_values *tile__ll_kv;   /* the library's knobs, from the load hook */
/* The optimizer's pipeline, TILE_LLVM_OPT (the library's notice names a bad
   value; it means the default here). O1 rather than O3 by default: on the
   H100 the kernels of bench_matmul and bench_attention run as fast (the
   128x256x64 matmul's PTX is the same), and a 128x128x64 matmul config
   compiles in 162 ms instead of 185. In the disk key, so that a cached
   kernel is one this pipeline made. */
static const char *tile__ll_pipeline(void) {
    const char *v = tile__ll_kv ? tile__ll_kv->llvm_opt : "";
    return v[0] == '2' && !v[1] ? "default<O2>" : v[0] == '3' && !v[1] ? "default<O3>" : "default<O1>";
}
/* The code generator's level, TILE_LLVM_CODEGEN (LLVMCodeGenOptLevel:
   None, Less, Default, Aggressive). Default rather than Aggressive: the
   attention_gpu harness's 70 kernels emit in 6.1-7.1 s instead of
   9.7-10.4 on a 2-core machine (LLVM 19), the attention forward's and the
   persistent matmul's PTX is the same, and the fused attention backward at
   D=128 spills a third fewer bytes. In the disk key too. */
static int tile__ll_cg_level(void) {
    const char *v = tile__ll_kv ? tile__ll_kv->llvm_codegen : "";
    return v[0] >= '0' && v[0] <= '3' && !v[1] ? v[0] - '0' : LLVM_CodeGenDefault;
}
static void tile__ll_open(void) {
    const char *env = tile__ll_kv ? tile__ll_kv->llvm : NULL;
    char path[512] = "";
    unsigned v = 0;
    if (env && *env) tile__ll_copy(path, sizeof path, env);
    else tile__ll_search(path, sizeof path, &v);
    void *h = path[0] ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!h && !(env && *env)) {
        /* the loader's own search path */
        static const char *const names[] = {"libLLVM.so", "libLLVM-19.so", "libLLVM-18.so", "libLLVM-17.so", "libLLVM-16.so", "libLLVM-15.so", NULL};
        for (int k = 0; names[k] && !h; k++)
            if ((h = dlopen(names[k], RTLD_NOW | RTLD_LOCAL)) != NULL) tile__ll_copy(path, sizeof path, names[k]);
    }
    if (!h) {
        snprintf(tile__ll_why, sizeof tile__ll_why, "no libLLVM of version 15 or later found (%s; set TILE_LLVM)", path[0] ? dlerror() : "searched /usr/lib*, /usr/lib/llvm-*/lib and the loader's path");
        return;
    }
    tile__ll_copy(tile__ll_path, sizeof tile__ll_path, path);
#define TILE__LL_NEED(ret, name, args)                                                                          \
    if (!(*(void **)&L.name = dlsym(h, #name))) {                                                             \
        snprintf(tile__ll_why, sizeof tile__ll_why, "%s lacks %s (LLVM 15 or later is needed)", path, #name); \
        return;                                                                                              \
    }
#define TILE__LL_OPT(ret, name, args) *(void **)&L.name = dlsym(h, #name);
    TILE__LLVM_FUNCS(TILE__LL_NEED, TILE__LL_OPT)
#undef TILE__LL_NEED
#undef TILE__LL_OPT
    unsigned maj = 0, mn = 0, pt = 0;
    if (L.LLVMGetVersion) L.LLVMGetVersion(&maj, &mn, &pt);
    else maj = tile__ll_name_version(path) ? tile__ll_name_version(path) : 15;   /* LLVMGetVersion came in 16 */
    if (maj < 15) {
        snprintf(tile__ll_why, sizeof tile__ll_why, "%s is LLVM %u; 15 or later is needed", path, maj);
        return;
    }
    tile__ll_major = maj;
    tile__ll_minor = mn;
    tile__ll_patch = pt;
    L.LLVMInitializeNVPTXTargetInfo();
    L.LLVMInitializeNVPTXTarget();
    L.LLVMInitializeNVPTXTargetMC();
    L.LLVMInitializeNVPTXAsmPrinter();
    tile__ll_ok = 1;
}
/* tile_backend_hooks.load: 1 when LLVM is ready; else why not, and -1 when
   it is TILE_LLVM that names no usable LLVM (the runtime says so once) */
static void tile__ll_open_knob(void) {
    const char *env = tile__ll_kv ? tile__ll_kv->llvm : NULL;
    tile__ll_open();
    if (!tile__ll_ok && env && *env) {
        char why[sizeof tile__ll_why];
        snprintf(why, sizeof why, "TILE_LLVM=%.400s: %.600s", env, tile__ll_why);
        tile__ll_copy(tile__ll_why, sizeof tile__ll_why, why);
        tile__ll_knob = 1;
    }
}
static int tile__ll_available(char *why, size_t n) {
    pthread_once(&tile__ll_once, tile__ll_open_knob);
    if (!tile__ll_ok && why) tile__ll_copy(why, n, tile__ll_why);
    return tile__ll_ok ? 1 : tile__ll_knob ? -1 : 0;
}
static int tile__ll_load_hook(const void *knobs, char *why, size_t n) {
    if (!tile__ll_kv) tile__ll_kv = (const tile__knob_values *)knobs;
    return tile__ll_available(why, n);
}
/* tile_backend_hooks.supports: the targets LLVM's NVPTX back end is asked
   for with PTX 8.0, up to sm_90a (before LLVM 17, sm_87 to sm_90a as sm_86
   with the PTX header raised: tile__ll_target) */
static const char *const tile__ll_archs[] = {"sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72",
                                             "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a"};
static int tile__ll_supports(const char *arch, char *why, size_t n) {
    enum { N = sizeof tile__ll_archs / sizeof *tile__ll_archs };
    for (int i = 0; i < N; i++)
        if (strcmp(arch, tile__ll_archs[i]) == 0) return 1;
    size_t used = (size_t)snprintf(why, n, "the LLVM back end (LLVM %u) compiles for", tile__ll_major);
    for (int i = 0; i < N && used < n; i++) used += (size_t)snprintf(why + used, n - used, "%s %s", i ? "," : "", tile__ll_archs[i]);
    return 0;
}

/* ---- the emitter ---------------------------------------------------------------------- */
typedef struct tile__ll_reg { LLVMValueRef v; tl_dtype t; int is_var; } tile__ll_reg;
typedef struct tile__ll_frame {
    int kind;                                  /* 0 for, 1 if, 2 loop */
    LLVMBasicBlockRef head, exit, els;
    int iv, step, has_else;
    tl_dtype t;
} tile__ll_frame;
typedef struct tile__ll_em {
    tile__emitter em;
    const tile__func *f;
    LLVMContextRef C;
    LLVMModuleRef M;
    LLVMBuilderRef B, A;                       /* A: allocas, at the end of the entry block */
    LLVMValueRef fn, smem, err, prof, ktime;   /* >>profile: the in-kernel scopes' records, the kernel clock's slot (NULL: none) */
    LLVMBasicBlockRef entry;
    tile__ll_reg *regs;
    int nregs, capregs;
    /* open structured control flow: a kernel body nests at most 64 deep
       (TILE__MAX_NEST), and the lowering adds a few levels inside an op */
    tile__ll_frame stk[256];
    int depth;
    int uses_math;
    char missing[256];                         /* the first feature this back end lacks */
    int uid;                                   /* inline PTX so far: its $U */
    LLVMTypeRef i1, i8, i16, i32, i64, f32, f64, vd, ptr, gptr, sptr;
} tile__ll_em;
static tile__ll_em *tile__ll_self(tile__emitter *e) { return (tile__ll_em *)e; }

static void tile__ll_missing(tile__ll_em *c, const char *what) {
    if (!c->missing[0]) snprintf(c->missing, sizeof c->missing, "%s", what);
}
static LLVMTypeRef tile__ll_ty(tile__ll_em *c, tl_dtype t) {
    switch (t) {
    case TL_I1: return c->i1;
    case TL_I8: case TL_U8: case TL_F8E4M3: case TL_F8E5M2: case TL_F8E4B15: case TL_F8E4B8: case TL_F8E5B16: return c->i8;
    case TL_I16: case TL_U16: case TL_F16: case TL_BF16: return c->i16;
    case TL_I32: case TL_U32: return c->i32;
    case TL_I64: case TL_U64: return c->i64;
    case TL_F32: return c->f32;
    case TL_F64: return c->f64;
    case TL_PTR: return c->ptr;
    default: return c->i32;
    }
}
/* the type an element has in memory (i1 is a byte) */
static LLVMTypeRef tile__ll_mty(tile__ll_em *c, tl_dtype t) { return t == TL_I1 ? c->i8 : tile__ll_ty(c, t); }
static int tile__ll_new(tile__ll_em *c, tl_dtype t, LLVMValueRef v, int is_var) {
    void *regs = c->regs;
    if (!tile__grow(&regs, &c->capregs, c->nregs + 1, sizeof *c->regs)) {
        /* out of host memory: the module is dropped (the first feature "missing") */
        tile__ll_missing(c, "out of host memory: registers");
        return c->nregs ? c->nregs - 1 : 0;
    }
    c->regs = (tile__ll_reg *)regs;
    c->regs[c->nregs].v = v;
    c->regs[c->nregs].t = t;
    c->regs[c->nregs].is_var = is_var;
    return c->nregs++;
}
/* the value of register r here (a variable is read where it is used) */
static LLVMValueRef tile__ll_get(tile__ll_em *c, int r) {
    if (r < 0 || r >= c->nregs) return L.LLVMGetUndef(c->i32);
    if (c->regs[r].is_var) return L.LLVMBuildLoad2(c->B, tile__ll_ty(c, c->regs[r].t), c->regs[r].v, "");
    return c->regs[r].v;
}
/* 1 and *v its value (sign-extended) when x is an integer constant */
static int tile__ll_cint(LLVMValueRef x, long long *v) {
    if (!L.LLVMIsAConstantInt(x)) return 0;
    *v = L.LLVMConstIntGetSExtValue(x);
    return 1;
}
static LLVMValueRef tile__ll_int(tile__ll_em *c, LLVMTypeRef t, long long v) { (void)c; return L.LLVMConstInt(t, (unsigned long long)v, 1); }
static LLVMValueRef tile__ll_i32c(tile__ll_em *c, long long v) { return tile__ll_int(c, c->i32, v); }
/* a call of a function declared on first use (intrinsics, libdevice, vprintf) */
static LLVMValueRef tile__ll_call(tile__ll_em *c, const char *name, LLVMTypeRef ret, LLVMTypeRef *pt, unsigned np, LLVMValueRef *args) {
    LLVMTypeRef ft = L.LLVMFunctionType(ret, pt, np, 0);
    LLVMValueRef fn = L.LLVMGetNamedFunction(c->M, name);
    if (!fn) fn = L.LLVMAddFunction(c->M, name, ft);
    return L.LLVMBuildCall2(c->B, ft, fn, args, np, "");
}
static LLVMValueRef tile__ll_call1(tile__ll_em *c, const char *name, LLVMTypeRef t, LLVMValueRef a) {
    return tile__ll_call(c, name, t, &t, 1, &a);
}
static LLVMValueRef tile__ll_call2(tile__ll_em *c, const char *name, LLVMTypeRef t, LLVMValueRef a, LLVMValueRef b) {
    LLVMTypeRef pt[2] = {t, t};
    LLVMValueRef args[2] = {a, b};
    return tile__ll_call(c, name, t, pt, 2, args);
}
/* one PTX instruction as inline asm, as the CUDA C emitter's prelude has it */
static LLVMValueRef tile__ll_asm(tile__ll_em *c, const char *text, const char *cons, LLVMTypeRef ret, LLVMTypeRef at, LLVMValueRef a) {
    LLVMTypeRef ft = L.LLVMFunctionType(ret, &at, 1, 0);
    LLVMValueRef fn = L.LLVMGetInlineAsm(ft, text, strlen(text), cons, strlen(cons), 0, 0, 0, 0);
    return L.LLVMBuildCall2(c->B, ft, fn, &a, 1, "");
}

/* cvt.rz / cvt.rzi from t to rt (f32, f64, 32- and 64-bit integers) as inline asm, not NVVM's
   llvm.nvvm.*2*.rz: LLVM's NVPTX instcombine rewrites those as sitofp/uitofp (which round to
   nearest: an H100 run found ull2double_rz, int2float_rz and the other integer-to-float ones
   wrong through libLLVM 17) and fptosi/fptoui (poison for a NaN or out of range) */
static LLVMValueRef tile__ll_cvt_rz(tile__ll_em *c, tl_dtype t, tl_dtype rt, LLVMValueRef v) {
    char text[48], cons[8];
    int fi = tile__is_float(t) && !tile__is_float(rt);
    const char *ptx[2], *reg[2];
    tl_dtype ts[2] = {rt, t};
    for (int i = 0; i < 2; i++) {
        tl_dtype d = ts[i];
        int w = tile__dt[d].bits == 64;
        ptx[i] = d == TL_F32 ? "f32" : d == TL_F64 ? "f64" : tile__is_signed(d) ? (w ? "s64" : "s32") : (w ? "u64" : "u32");
        reg[i] = d == TL_F32 ? "f" : d == TL_F64 ? "d" : w ? "l" : "r";
    }
    snprintf(text, sizeof text, "cvt.%s.%s.%s $0, $1;", fi ? "rzi" : "rz", ptx[0], ptx[1]);
    snprintf(cons, sizeof cons, "=%s,%s", reg[0], reg[1]);
    return tile__ll_asm(c, text, cons, tile__ll_ty(c, rt), tile__ll_ty(c, t), v);
}
static LLVMValueRef tile__ll_fconst(tile__ll_em *c, LLVMTypeRef t, double v) {
    if (t == c->f64) {
        uint64_t u;
        memcpy(&u, &v, 8);
        return L.LLVMBuildBitCast(c->B, L.LLVMConstInt(c->i64, u, 0), c->f64, "");
    }
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    return L.LLVMBuildBitCast(c->B, L.LLVMConstInt(c->i32, u, 0), c->f32, "");
}
/* ---- f8 in software, as the CUDA C emitter's prelude has it ---------------------- */
/* 2^q as an f32, q an i32 register in [-126, 127] */
static LLVMValueRef tile__ll_pow2(tile__ll_em *c, LLVMValueRef q) {
    LLVMValueRef b = L.LLVMBuildShl(c->B, L.LLVMBuildAdd(c->B, q, L.LLVMConstInt(c->i32, 127, 0), ""), L.LLVMConstInt(c->i32, 23, 0), "");
    return L.LLVMBuildBitCast(c->B, b, c->f32, "");
}
/* the binade of a finite f32 a >= 0: floor(log2 a) (f32 subnormals: -127) */
static LLVMValueRef tile__ll_binade(tile__ll_em *c, LLVMValueRef a) {
    LLVMValueRef u = L.LLVMBuildBitCast(c->B, a, c->i32, "");
    LLVMValueRef e = L.LLVMBuildAnd(c->B, L.LLVMBuildLShr(c->B, u, L.LLVMConstInt(c->i32, 23, 0), ""), L.LLVMConstInt(c->i32, 255, 0), "");
    return L.LLVMBuildSub(c->B, e, L.LLVMConstInt(c->i32, 127, 0), "");
}
/* a >= 0 rounded to nearest even with mbits fraction bits and smallest
   normal binade emin (tile_round_fmt); ties away from zero with `away` */
static LLVMValueRef tile__ll_round_fmt_ties(tile__ll_em *c, LLVMValueRef a, int mbits, int emin, int away) {
    LLVMBuilderRef B = c->B;
    LLVMValueRef e = tile__ll_binade(c, a), lo = L.LLVMConstInt(c->i32, (unsigned long long)(long long)emin, 1);
    e = L.LLVMBuildSelect(B, L.LLVMBuildICmp(B, LLVM_IntSLT, e, lo, ""), lo, e, "");
    LLVMValueRef q = L.LLVMBuildSub(B, e, L.LLVMConstInt(c->i32, (unsigned long long)mbits, 0), "");
    LLVMValueRef scaled = L.LLVMBuildFMul(B, a, tile__ll_pow2(c, L.LLVMBuildSub(B, L.LLVMConstInt(c->i32, 0, 0), q, "")), "");
    LLVMValueRef back = tile__ll_pow2(c, q);
    return L.LLVMBuildFMul(B, tile__ll_call1(c, away ? "llvm.round.f32" : "llvm.rint.f32", c->f32, scaled), back, "");
}
static LLVMValueRef tile__ll_round_fmt(tile__ll_em *c, LLVMValueRef a, int mbits, int emin) { return tile__ll_round_fmt_ties(c, a, mbits, emin, 0); }
/* the f8 bits (no sign) of v >= 0, already representable (tile_fenc) */
static LLVMValueRef tile__ll_fenc_bits(tile__ll_em *c, LLVMValueRef v, int mbits, int bias) {
    LLVMBuilderRef B = c->B;
    LLVMValueRef E = L.LLVMBuildAdd(B, tile__ll_binade(c, v), L.LLVMConstInt(c->i32, (unsigned long long)bias, 0), "");
    LLVMValueRef u = L.LLVMBuildBitCast(B, v, c->i32, "");
    LLVMValueRef frac = L.LLVMBuildAnd(B, L.LLVMBuildLShr(B, u, L.LLVMConstInt(c->i32, (unsigned long long)(23 - mbits), 0), ""),
                                       L.LLVMConstInt(c->i32, (1u << mbits) - 1, 0), "");
    LLVMValueRef normal = L.LLVMBuildOr(B, L.LLVMBuildShl(B, E, L.LLVMConstInt(c->i32, (unsigned long long)mbits, 0), ""), frac, "");
    LLVMValueRef sub = L.LLVMBuildFPToUI(B, L.LLVMBuildFMul(B, v, tile__ll_fconst(c, c->f32, ldexp(1.0, bias - 1 + mbits)), ""), c->i32, "");
    LLVMValueRef r = L.LLVMBuildSelect(B, L.LLVMBuildICmp(B, LLVM_IntSLE, E, L.LLVMConstInt(c->i32, 0, 0), ""), sub, normal, "");
    return L.LLVMBuildSelect(B, L.LLVMBuildFCmp(B, LLVM_RealOEQ, v, tile__ll_fconst(c, c->f32, 0.0), ""), L.LLVMConstInt(c->i32, 0, 0), r, "");
}
/* f32 -> e4m3 (saturating, NaN kept) or e5m2 (overflow to inf; `sat`: to the largest finite) */
static LLVMValueRef tile__ll_f2f8(tile__ll_em *c, LLVMValueRef x, tl_dtype t, int sat) {
    LLVMBuilderRef B = c->B;
    LLVMValueRef u = L.LLVMBuildBitCast(B, x, c->i32, "");
    LLVMValueRef s = L.LLVMBuildAnd(B, L.LLVMBuildLShr(B, u, L.LLVMConstInt(c->i32, 24, 0), ""), L.LLVMConstInt(c->i32, 0x80, 0), "");
    LLVMValueRef a = tile__ll_call1(c, "llvm.fabs.f32", c->f32, x);
    LLVMValueRef nan = L.LLVMBuildFCmp(B, LLVM_RealUNE, x, x, ""), r;
    if (t == TL_F8E4M3) {
        LLVMValueRef v = tile__ll_round_fmt(c, a, 3, -6), mx = tile__ll_fconst(c, c->f32, 448.0);
        v = L.LLVMBuildSelect(B, L.LLVMBuildFCmp(B, LLVM_RealOGT, v, mx, ""), mx, v, "");
        r = L.LLVMBuildSelect(B, nan, L.LLVMConstInt(c->i32, 0x7f, 0), tile__ll_fenc_bits(c, v, 3, 7), "");
    } else {
        LLVMValueRef inf = tile__ll_fconst(c, c->f32, HUGE_VAL), mx = tile__ll_fconst(c, c->f32, 57344.0);
        LLVMValueRef isinf = L.LLVMBuildFCmp(B, LLVM_RealOEQ, a, inf, "");
        LLVMValueRef v = L.LLVMBuildSelect(B, isinf, inf, tile__ll_round_fmt(c, L.LLVMBuildSelect(B, isinf, mx, a, ""), 2, -14), "");
        LLVMValueRef over = L.LLVMBuildFCmp(B, LLVM_RealOGT, v, mx, "");
        LLVMValueRef enc = tile__ll_fenc_bits(c, L.LLVMBuildSelect(B, over, mx, v, ""), 2, 15);
        r = L.LLVMBuildSelect(B, over, sat ? L.LLVMConstInt(c->i32, 0x7b, 0) : L.LLVMConstInt(c->i32, 0x7c, 0), enc, "");
        r = L.LLVMBuildSelect(B, nan, L.LLVMConstInt(c->i32, 0x7e, 0), r, "");
    }
    return L.LLVMBuildTrunc(B, L.LLVMBuildOr(B, r, s, ""), c->i8, "");
}
/* >>f8: f32 -> a software f8 (tile_f2e4b15, tile_f2f8nuz): f8e4b15 ties
   away and saturates at 1.75 (NaN to +1.75); the fnuz ones round
   to nearest even and saturate, NaN and infinities 0x80, zero unsigned */
static LLVMValueRef tile__ll_f2f8sw(tile__ll_em *c, LLVMValueRef x, tl_dtype t) {
    LLVMBuilderRef B = c->B;
    const tile__f8fmt *F = tile__f8sw(t);
    LLVMValueRef u = L.LLVMBuildBitCast(B, x, c->i32, "");
    LLVMValueRef s = L.LLVMBuildAnd(B, L.LLVMBuildLShr(B, u, L.LLVMConstInt(c->i32, 24, 0), ""), L.LLVMConstInt(c->i32, 0x80, 0), "");
    LLVMValueRef a = tile__ll_call1(c, "llvm.fabs.f32", c->f32, x), mx = tile__ll_fconst(c, c->f32, F->maxv);
    LLVMValueRef nan = L.LLVMBuildFCmp(B, LLVM_RealUNE, x, x, ""), r;
    LLVMValueRef big = L.LLVMBuildFCmp(B, LLVM_RealOGT, a, tile__ll_fconst(c, c->f32, 2 * F->maxv), "");
    a = L.LLVMBuildSelect(B, L.LLVMBuildOr(B, big, nan, ""), tile__ll_fconst(c, c->f32, 2 * F->maxv), a, "");   /* no infinity into the rounding */
    LLVMValueRef v = tile__ll_round_fmt_ties(c, a, F->mbits, F->emin, t == TL_F8E4B15);
    v = L.LLVMBuildSelect(B, L.LLVMBuildFCmp(B, LLVM_RealOGT, v, mx, ""), mx, v, "");
    s = L.LLVMBuildSelect(B, nan, L.LLVMConstInt(c->i32, 0, 0), s, "");   /* NaN: +1.75 (f8e4b15) */
    r = L.LLVMBuildOr(B, tile__ll_fenc_bits(c, v, F->mbits, F->bias), s, "");
    if (t != TL_F8E4B15) {
        LLVMValueRef inf = L.LLVMBuildFCmp(B, LLVM_RealOEQ, tile__ll_call1(c, "llvm.fabs.f32", c->f32, x), tile__ll_fconst(c, c->f32, HUGE_VAL), "");
        r = L.LLVMBuildSelect(B, L.LLVMBuildFCmp(B, LLVM_RealOEQ, v, tile__ll_fconst(c, c->f32, 0.0), ""), L.LLVMConstInt(c->i32, 0, 0), r, "");
        r = L.LLVMBuildSelect(B, L.LLVMBuildOr(B, nan, inf, ""), L.LLVMConstInt(c->i32, 0x80, 0), r, "");
    }
    return L.LLVMBuildTrunc(B, r, c->i8, "");
}
/* >>f8: a software f8 -> f32 (tile_f8sw_2f), exact */
static LLVMValueRef tile__ll_f8sw_2f(tile__ll_em *c, LLVMValueRef b8, tl_dtype t) {
    LLVMBuilderRef B = c->B;
    const tile__f8fmt *F = tile__f8sw(t);
    LLVMValueRef b = L.LLVMBuildZExt(B, b8, c->i32, "");
    LLVMValueRef e = L.LLVMBuildAnd(B, L.LLVMBuildLShr(B, b, L.LLVMConstInt(c->i32, (unsigned long long)F->mbits, 0), ""),
                                    L.LLVMConstInt(c->i32, (1u << (7 - F->mbits)) - 1, 0), "");
    LLVMValueRef m = L.LLVMBuildAnd(B, b, L.LLVMConstInt(c->i32, (1u << F->mbits) - 1, 0), "");
    LLVMValueRef ebits = L.LLVMBuildShl(B, L.LLVMBuildAdd(B, e, L.LLVMConstInt(c->i32, (unsigned long long)(127 - F->bias), 0), ""), L.LLVMConstInt(c->i32, 23, 0), "");
    LLVMValueRef normal = L.LLVMBuildBitCast(B, L.LLVMBuildOr(B, ebits, L.LLVMBuildShl(B, m, L.LLVMConstInt(c->i32, (unsigned long long)(23 - F->mbits), 0), ""), ""), c->f32, "");
    LLVMValueRef sub = L.LLVMBuildFMul(B, L.LLVMBuildUIToFP(B, m, c->f32, ""), tile__ll_fconst(c, c->f32, ldexp(1.0, 1 - F->bias - F->mbits)), "");
    LLVMValueRef v = L.LLVMBuildSelect(B, L.LLVMBuildICmp(B, LLVM_IntEQ, e, L.LLVMConstInt(c->i32, 0, 0), ""), sub, normal, "");
    LLVMValueRef neg = L.LLVMBuildICmp(B, LLVM_IntNE, L.LLVMBuildAnd(B, b, L.LLVMConstInt(c->i32, 0x80, 0), ""), L.LLVMConstInt(c->i32, 0, 0), "");
    v = L.LLVMBuildSelect(B, neg, L.LLVMBuildFNeg(B, v, ""), v, "");
    if (t == TL_F8E4B15) return v;
    LLVMValueRef isnan = L.LLVMBuildICmp(B, LLVM_IntEQ, b, L.LLVMConstInt(c->i32, 0x80, 0), "");
    return L.LLVMBuildSelect(B, isnan, L.LLVMBuildBitCast(B, L.LLVMConstInt(c->i32, 0x7fc00000u, 0), c->f32, ""), v, "");
}
static LLVMValueRef tile__ll_e4m3_2f(tile__ll_em *c, LLVMValueRef b8) {
    LLVMBuilderRef B = c->B;
    LLVMValueRef b = L.LLVMBuildZExt(B, b8, c->i32, "");
    LLVMValueRef e = L.LLVMBuildAnd(B, L.LLVMBuildLShr(B, b, L.LLVMConstInt(c->i32, 3, 0), ""), L.LLVMConstInt(c->i32, 15, 0), "");
    LLVMValueRef m = L.LLVMBuildAnd(B, b, L.LLVMConstInt(c->i32, 7, 0), "");
    LLVMValueRef mant = L.LLVMBuildShl(B, m, L.LLVMConstInt(c->i32, 20, 0), "");
    LLVMValueRef normal = L.LLVMBuildBitCast(B, L.LLVMBuildOr(B, L.LLVMBuildShl(B, L.LLVMBuildAdd(B, e, L.LLVMConstInt(c->i32, 120, 0), ""), L.LLVMConstInt(c->i32, 23, 0), ""),
                                                           mant, ""), c->f32, "");
    LLVMValueRef sub = L.LLVMBuildFMul(B, L.LLVMBuildUIToFP(B, m, c->f32, ""), tile__ll_fconst(c, c->f32, ldexp(1.0, -9)), "");
    LLVMValueRef v = L.LLVMBuildSelect(B, L.LLVMBuildICmp(B, LLVM_IntEQ, e, L.LLVMConstInt(c->i32, 0, 0), ""), sub, normal, "");
    LLVMValueRef isnan = L.LLVMBuildICmp(B, LLVM_IntEQ, L.LLVMBuildAnd(B, b, L.LLVMConstInt(c->i32, 0x7f, 0), ""), L.LLVMConstInt(c->i32, 0x7f, 0), "");
    v = L.LLVMBuildSelect(B, isnan, L.LLVMBuildBitCast(B, L.LLVMConstInt(c->i32, 0x7fc00000u, 0), c->f32, ""), v, "");
    LLVMValueRef neg = L.LLVMBuildICmp(B, LLVM_IntNE, L.LLVMBuildAnd(B, b, L.LLVMConstInt(c->i32, 0x80, 0), ""), L.LLVMConstInt(c->i32, 0, 0), "");
    return L.LLVMBuildSelect(B, neg, L.LLVMBuildFNeg(B, v, ""), v, "");
}

/* Narrow floats: decoded to f32, encoded with one rounding (cvt.rn). */
static LLVMValueRef tile__ll_fval(tile__ll_em *c, tl_dtype t, LLVMValueRef v) {
    switch (t) {
    case TL_F16: return tile__ll_asm(c, "cvt.f32.f16 $0, $1;", "=f,h", c->f32, c->i16, v);
    case TL_BF16: {
        LLVMValueRef w = L.LLVMBuildShl(c->B, L.LLVMBuildZExt(c->B, v, c->i32, ""), tile__ll_i32c(c, 16), "");
        return L.LLVMBuildBitCast(c->B, w, c->f32, "");
    }
    case TL_F8E4M3: return tile__ll_e4m3_2f(c, v);
    case TL_F8E4B15: case TL_F8E4B8: case TL_F8E5B16: return tile__ll_f8sw_2f(c, v, t);
    case TL_F8E5M2: {
        LLVMValueRef h = L.LLVMBuildShl(c->B, L.LLVMBuildZExt(c->B, v, c->i16, ""), L.LLVMConstInt(c->i16, 8, 0), "");
        return tile__ll_asm(c, "cvt.f32.f16 $0, $1;", "=f,h", c->f32, c->i16, h);
    }
    default: return v;
    }
}
static LLVMValueRef tile__ll_fenc(tile__ll_em *c, tl_dtype t, LLVMValueRef f) {
    switch (t) {
    case TL_F16: return tile__ll_asm(c, "cvt.rn.f16.f32 $0, $1;", "=h,f", c->i16, c->f32, f);
    case TL_BF16: return tile__ll_asm(c, "cvt.rn.bf16.f32 $0, $1;", "=h,f", c->i16, c->f32, f);
    case TL_F8E4M3: case TL_F8E5M2: return tile__ll_f2f8(c, f, t, 0);
    case TL_F8E4B15: case TL_F8E4B8: case TL_F8E5B16: return tile__ll_f2f8sw(c, f, t);
    default: return f;
    }
}
static LLVMValueRef tile__ll_fv(tile__ll_em *c, int r) { return tile__ll_fval(c, c->regs[r].t, tile__ll_get(c, r)); }
static LLVMTypeRef tile__ll_fty(tile__ll_em *c, tl_dtype t) { return t == TL_F64 ? c->f64 : c->f32; }
/* a double narrowed to f32 rounding to odd, so that a second rounding to a
   narrower float is as one rounding (tile_d2f_odd) */
static LLVMValueRef tile__ll_d2f_odd(tile__ll_em *c, LLVMValueRef d) {
    LLVMValueRef f = tile__ll_call(c, "llvm.nvvm.d2f.rz", c->f32, &c->f64, 1, &d);
    LLVMValueRef back = L.LLVMBuildFPExt(c->B, f, c->f64, "");
    LLVMValueRef inexact = L.LLVMBuildFCmp(c->B, LLVM_RealUNE, back, d, "");
    LLVMValueRef notnan = L.LLVMBuildFCmp(c->B, LLVM_RealOEQ, d, d, "");
    LLVMValueRef finite = L.LLVMBuildFCmp(c->B, LLVM_RealOEQ, L.LLVMBuildFSub(c->B, f, f, ""), tile__ll_fconst(c, c->f32, 0.0), "");
    LLVMValueRef odd = L.LLVMBuildAnd(c->B, inexact, L.LLVMBuildAnd(c->B, notnan, finite, ""), "");
    LLVMValueRef bits = L.LLVMBuildBitCast(c->B, f, c->i32, "");
    LLVMValueRef ob = L.LLVMBuildOr(c->B, bits, tile__ll_i32c(c, 1), "");
    return L.LLVMBuildBitCast(c->B, L.LLVMBuildSelect(c->B, odd, ob, bits, ""), c->f32, "");
}
/* a * b + c of f32 values, exact, rounded to odd at f32 (tile_fma_odd) */
static LLVMValueRef tile__ll_fma_odd(tile__ll_em *c, LLVMValueRef a, LLVMValueRef b, LLVMValueRef cc) {
    LLVMBuilderRef B = c->B;
    LLVMValueRef ad = L.LLVMBuildFPExt(B, a, c->f64, ""), bd = L.LLVMBuildFPExt(B, b, c->f64, ""), cd = L.LLVMBuildFPExt(B, cc, c->f64, "");
    LLVMValueRef p = L.LLVMBuildFMul(B, ad, bd, ""), s = L.LLVMBuildFAdd(B, p, cd, "");
    LLVMValueRef bv = L.LLVMBuildFSub(B, s, p, ""), av = L.LLVMBuildFSub(B, s, bv, "");
    LLVMValueRef eb = L.LLVMBuildFSub(B, cd, bv, "");
    LLVMValueRef er = L.LLVMBuildFAdd(B, L.LLVMBuildFSub(B, p, av, ""), eb, "");
    LLVMValueRef zero = tile__ll_fconst(c, c->f64, 0.0);
    LLVMValueRef u = L.LLVMBuildBitCast(B, s, c->i64, "");
    LLVMValueRef even = L.LLVMBuildICmp(B, LLVM_IntEQ, L.LLVMBuildAnd(B, u, tile__ll_int(c, c->i64, 1), ""), tile__ll_int(c, c->i64, 0), "");
    LLVMValueRef fix = L.LLVMBuildAnd(B, L.LLVMBuildFCmp(B, LLVM_RealUNE, er, zero, ""), even, "");
    LLVMValueRef spos = L.LLVMBuildFCmp(B, LLVM_RealOGT, s, zero, "");
    LLVMValueRef same = L.LLVMBuildICmp(B, LLVM_IntEQ, L.LLVMBuildFCmp(B, LLVM_RealOGT, er, zero, ""), spos, "");
    LLVMValueRef step = L.LLVMBuildSelect(B, same, tile__ll_int(c, c->i64, 1), tile__ll_int(c, c->i64, -1), "");
    LLVMValueRef u2 = L.LLVMBuildSelect(B, fix, L.LLVMBuildAdd(B, u, step, ""), u, "");
    return tile__ll_d2f_odd(c, L.LLVMBuildBitCast(B, u2, c->f64, ""));
}

static int tile__ll_lit(tile__emitter *e, tl_dtype t, tile__elem v) {
    tile__ll_em *c = tile__ll_self(e);
    if (t == TL_F32 || t == TL_F64) {
        if (t == TL_F32 && v.f != v.f) {
            uint32_t u = 0x7fc00000u | (signbit(v.f) ? 0x80000000u : 0);
            return tile__ll_new(c, t, L.LLVMBuildBitCast(c->B, L.LLVMConstInt(c->i32, u, 0), c->f32, ""), 0);
        }
        return tile__ll_new(c, t, tile__ll_fconst(c, tile__ll_ty(c, t), v.f), 0);
    }
    if (tile__is_float(t)) {
        unsigned char b[8] = {0};
        tile__mem_store(t, b, v);
        unsigned bits = tile__dt[t].bytes == 2 ? (unsigned)(b[0] | b[1] << 8) : b[0];
        return tile__ll_new(c, t, L.LLVMConstInt(tile__ll_ty(c, t), bits, 0), 0);
    }
    if (t == TL_PTR) return tile__ll_new(c, t, L.LLVMBuildIntToPtr(c->B, L.LLVMConstInt(c->i64, v.u, 0), c->ptr, ""), 0);
    if (t == TL_I1) return tile__ll_new(c, t, L.LLVMConstInt(c->i1, v.i ? 1 : 0, 0), 0);
    return tile__ll_new(c, t, L.LLVMConstInt(tile__ll_ty(c, t), v.u, 0), 0);
}
static int tile__ll_special(tile__emitter *e, int which) {
    static const char *const names[] = {"llvm.nvvm.read.ptx.sreg.tid.x", "llvm.nvvm.read.ptx.sreg.ctaid.x", "llvm.nvvm.read.ptx.sreg.ctaid.y",
                                        "llvm.nvvm.read.ptx.sreg.ctaid.z", "llvm.nvvm.read.ptx.sreg.nctaid.x", "llvm.nvvm.read.ptx.sreg.nctaid.y",
                                        "llvm.nvvm.read.ptx.sreg.nctaid.z"};
    tile__ll_em *c = tile__ll_self(e);
    if (which == 7) return tile__ll_new(c, TL_PTR, c->prof, 0);    /* >>profile: the hidden parameters, last */
    if (which == 8) return tile__ll_new(c, TL_PTR, c->ktime, 0);
    return tile__ll_new(c, TL_I32, tile__ll_call(c, names[which], c->i32, NULL, 0, NULL), 0);
}
static int tile__ll_param(tile__emitter *e, int k) {
    tile__ll_em *c = tile__ll_self(e);
    const tile__value *v = &c->f->vals[c->f->pool[c->f->regs[0].args + k]];
    return tile__ll_new(c, v->t.dtype, L.LLVMGetParam(c->fn, (unsigned)k), 0);
}

/* libdevice's function `name` of dtype t (__nv_<name>f, __nv_<name>) of x, or of x and y (y not NULL) */
static LLVMValueRef tile__ll_math(tile__ll_em *c, const char *name, tl_dtype t, LLVMValueRef x, LLVMValueRef y) {
    char fn[40];
    snprintf(fn, sizeof fn, "__nv_%s%s", name, t == TL_F64 ? "" : "f");
    c->uses_math = 1;
    return y ? tile__ll_call2(c, fn, tile__ll_fty(c, t), x, y) : tile__ll_call1(c, fn, tile__ll_fty(c, t), x);
}
static LLVMValueRef tile__ll_cast(tile__ll_em *c, tl_dtype t, tl_dtype rt, int a) {
    LLVMBuilderRef B = c->B;
    LLVMValueRef v = tile__ll_get(c, a);
    LLVMTypeRef rty = tile__ll_ty(c, rt);
    if (t == rt) return v;
    if (t == TL_PTR) v = L.LLVMBuildPtrToInt(B, v, c->i64, ""), t = TL_U64;
    if (rt == TL_PTR) {
        LLVMValueRef w = tile__dt[t].bits < 64 ? (tile__is_signed(t) ? L.LLVMBuildSExt(B, v, c->i64, "") : L.LLVMBuildZExt(B, v, c->i64, "")) : v;
        return L.LLVMBuildIntToPtr(B, w, c->ptr, "");
    }
    if (t == rt) return v;
    if (rt == TL_I1) {
        if (tile__is_float(t)) {
            LLVMValueRef x = tile__ll_fval(c, t, v);
            return L.LLVMBuildFCmp(B, LLVM_RealUNE, x, tile__ll_fconst(c, tile__ll_fty(c, t), 0.0), "");
        }
        return L.LLVMBuildICmp(B, LLVM_IntNE, v, L.LLVMConstNull(tile__ll_ty(c, t)), "");
    }
    if (tile__is_float(rt)) {
        LLVMValueRef y;
        int sgn = tile__is_signed(t);
        if (tile__is_float(t)) {
            LLVMValueRef x = tile__ll_fval(c, t, v);
            if (rt == TL_F64) y = t == TL_F64 ? x : L.LLVMBuildFPExt(B, x, c->f64, "");
            else if (t == TL_F64 && rt != TL_F32) y = tile__ll_d2f_odd(c, x);
            else y = t == TL_F64 ? L.LLVMBuildFPTrunc(B, x, c->f32, "") : x;
        } else if (rt == TL_F64) y = sgn ? L.LLVMBuildSIToFP(B, v, c->f64, "") : L.LLVMBuildUIToFP(B, v, c->f64, "");
        else if (tile__dt[t].bits == 64 && rt != TL_F32) {
            /* |i| to f32 toward zero, odd when inexact, the sign back (tile_ll2f_odd) */
            LLVMValueRef neg = sgn ? L.LLVMBuildICmp(B, LLVM_IntSLT, v, tile__ll_int(c, c->i64, 0), "") : L.LLVMConstInt(c->i1, 0, 0);
            LLVMValueRef u = L.LLVMBuildSelect(B, neg, L.LLVMBuildSub(B, tile__ll_int(c, c->i64, 0), v, ""), v, "");
            LLVMValueRef f = tile__ll_cvt_rz(c, TL_U64, TL_F32, u);
            LLVMValueRef inexact = L.LLVMBuildICmp(B, LLVM_IntNE, L.LLVMBuildFPToUI(B, f, c->i64, ""), u, "");
            LLVMValueRef bits = L.LLVMBuildBitCast(B, f, c->i32, "");
            f = L.LLVMBuildBitCast(B, L.LLVMBuildSelect(B, inexact, L.LLVMBuildOr(B, bits, tile__ll_i32c(c, 1), ""), bits, ""), c->f32, "");
            y = L.LLVMBuildSelect(B, neg, L.LLVMBuildFNeg(B, f, ""), f, "");
        } else if (tile__dt[t].bits > 16 && rt != TL_F32)
            y = tile__ll_d2f_odd(c, sgn ? L.LLVMBuildSIToFP(B, v, c->f64, "") : L.LLVMBuildUIToFP(B, v, c->f64, ""));
        else y = sgn ? L.LLVMBuildSIToFP(B, v, c->f32, "") : L.LLVMBuildUIToFP(B, v, c->f32, "");
        if (rt == TL_F8E5M2) return tile__ll_f2f8(c, y, rt, 1);
        return tile__ll_fenc(c, rt, y);
    }
    if (tile__is_float(t)) {
        /* truncate, saturate, NaN -> 0 (cvt.rzi.sat), decided in double */
        LLVMValueRef x = tile__ll_fval(c, t, v);
        if (t != TL_F64) x = L.LLVMBuildFPExt(B, x, c->f64, "");
        unsigned w = tile__dt[rt].bits;
        int sgn = tile__is_signed(rt);
        double lo = sgn ? -ldexp(1.0, (int)w - 1) : 0.0, hi = sgn ? ldexp(1.0, (int)w - 1) - 1 : ldexp(1.0, (int)w) - 1;
        unsigned long long lov = sgn ? (unsigned long long)(-(1LL << (w - 1 > 62 ? 62 : w - 1))) : 0;
        unsigned long long hiv = sgn ? (w == 64 ? 0x7fffffffffffffffull : (1ull << (w - 1)) - 1) : (w == 64 ? ~0ull : (1ull << w) - 1);
        if (sgn && w == 64) lov = 0x8000000000000000ull;
        LLVMValueRef conv = sgn ? L.LLVMBuildFPToSI(B, x, rty, "") : L.LLVMBuildFPToUI(B, x, rty, "");
        LLVMValueRef r = L.LLVMBuildSelect(B, L.LLVMBuildFCmp(B, LLVM_RealOGE, x, tile__ll_fconst(c, c->f64, hi), ""), L.LLVMConstInt(rty, hiv, 0), conv, "");
        r = L.LLVMBuildSelect(B, L.LLVMBuildFCmp(B, LLVM_RealOLE, x, tile__ll_fconst(c, c->f64, lo), ""), L.LLVMConstInt(rty, lov, 0), r, "");
        return L.LLVMBuildSelect(B, L.LLVMBuildFCmp(B, LLVM_RealOEQ, x, x, ""), r, L.LLVMConstNull(rty), "");
    }
    if (t == TL_I1) return L.LLVMBuildZExt(B, v, rty, "");
    unsigned wf = tile__dt[t].bits, wt = tile__dt[rt].bits;
    if (wf == wt) return v;
    if (wf > wt) return L.LLVMBuildTrunc(B, v, rty, "");
    return tile__is_signed(t) ? L.LLVMBuildSExt(B, v, rty, "") : L.LLVMBuildZExt(B, v, rty, "");
}
/* tl_libdevice's rounding-mode functions (TILE__ROUNDED_OPS): NVVM's intrinsics, each one PTX
   instruction with that rounding and without .ftz (add.rz.f32, fma.rm.f64, rcp.rp.f32,
   sqrt.rz.f64, cvt.rmi.s32.f32, cvt.rp.f32.u64, ...: libdevice's __nv_fadd_rz and the others are
   these calls), sub as add of -b (IEEE's definition of a - b); rsqrt_rn is libdevice's
   __nv_frsqrt_rn (PTX has no such instruction) */
static const char *tile__ll_cvt_name(tl_dtype t) {
    return t == TL_F32 ? "f" : t == TL_F64 ? "d" : t == TL_I32 ? "i" : t == TL_U32 ? "ui" : t == TL_I64 ? "ll" : "ull";
}
static int tile__ll_rnd(tile__ll_em *c, tile__opcode code, tl_dtype t, tl_dtype rt, int a, int b, int c3) {
    static const char *const modes[4] = {"rn", "rz", "rm", "rp"};
    const char *m = modes[tile__rnd_mode(code)], *p = t == TL_F64 ? "d" : "f";
    tile__opcode op = tile__rnd_op(code);
    LLVMTypeRef ft = tile__ll_fty(c, t), pt[3] = {ft, ft, ft};
    LLVMValueRef args[3] = {tile__ll_get(c, a), b >= 0 ? tile__ll_get(c, b) : NULL, c3 >= 0 ? tile__ll_get(c, c3) : NULL}, r;
    char nm[48];
    switch (op) {
    case TILE__OP_ADD_RN: case TILE__OP_SUB_RN: case TILE__OP_MUL_RN: case TILE__OP_DIV_RN:
        if (op == TILE__OP_SUB_RN) args[1] = L.LLVMBuildFNeg(c->B, args[1], "");
        snprintf(nm, sizeof nm, "llvm.nvvm.%s.%s.%s", op == TILE__OP_MUL_RN ? "mul" : op == TILE__OP_DIV_RN ? "div" : "add", m, p);
        r = tile__ll_call(c, nm, ft, pt, 2, args);
        break;
    case TILE__OP_FMA_RN:
        snprintf(nm, sizeof nm, "llvm.nvvm.fma.%s.%s", m, p);
        r = tile__ll_call(c, nm, ft, pt, 3, args);
        break;
    case TILE__OP_RCP_RN: case TILE__OP_SQRT_RN:
        snprintf(nm, sizeof nm, "llvm.nvvm.%s.%s.%s", op == TILE__OP_RCP_RN ? "rcp" : "sqrt", m, p);
        r = tile__ll_call1(c, nm, ft, args[0]);
        break;
    case TILE__OP_RSQRT_RN:
        c->uses_math = 1;
        r = tile__ll_call1(c, "__nv_frsqrt_rn", c->f32, args[0]);
        break;
    default: {   /* CVT: from t to rt */
        LLVMTypeRef st = tile__ll_ty(c, t);
        if (tile__rnd_mode(code) == 1) {   /* round toward zero: the instruction itself (tile__ll_cvt_rz) */
            r = tile__ll_cvt_rz(c, t, rt, args[0]);
            break;
        }
        snprintf(nm, sizeof nm, "llvm.nvvm.%s2%s.%s", tile__ll_cvt_name(t), tile__ll_cvt_name(rt), m);
        r = tile__ll_call(c, nm, tile__ll_ty(c, rt), &st, 1, args);
        break;
    }
    }
    return tile__ll_new(c, rt, r, 0);
}
static int tile__ll_op1(tile__emitter *e, tile__opcode code, tl_dtype t, tl_dtype rt, int a) {
    tile__ll_em *c = tile__ll_self(e);
    LLVMBuilderRef B = c->B;
    LLVMValueRef y = NULL;
    const char *math = NULL;
    int fl = tile__is_float(t);
    if (tile__rnd_mode(code) >= 0) return tile__ll_rnd(c, code, t, rt, a, -1, -1);
    switch (code) {
    case TILE__OP_NEG:
        if (fl) return tile__ll_new(c, rt, tile__ll_fenc(c, rt, L.LLVMBuildFNeg(B, tile__ll_fv(c, a), "")), 0);
        return tile__ll_new(c, rt, L.LLVMBuildSub(B, L.LLVMConstNull(tile__ll_ty(c, t)), tile__ll_get(c, a), ""), 0);
    case TILE__OP_POPC: case TILE__OP_CLZ: case TILE__OP_FFS: case TILE__OP_BREV: {
        LLVMTypeRef it = tile__ll_ty(c, t);
        LLVMValueRef v = tile__ll_get(c, a), r;
        char nm[32];
        if (code == TILE__OP_POPC || code == TILE__OP_BREV) {
            snprintf(nm, sizeof nm, "llvm.%s.i%u", code == TILE__OP_POPC ? "ctpop" : "bitreverse", tile__dt[t].bits);
            r = tile__ll_call1(c, nm, it, v);
        } else {   /* ctlz, cttz: 0 gives the width (is_zero_poison false) */
            LLVMTypeRef pt[2] = {it, c->i1};
            LLVMValueRef args[2] = {v, L.LLVMConstInt(c->i1, 0, 0)};
            snprintf(nm, sizeof nm, "llvm.%s.i%u", code == TILE__OP_CLZ ? "ctlz" : "cttz", tile__dt[t].bits);
            r = tile__ll_call(c, nm, it, pt, 2, args);
            if (code == TILE__OP_FFS)   /* 1 + cttz, and 0 for 0 */
                r = L.LLVMBuildSelect(B, L.LLVMBuildICmp(B, LLVM_IntEQ, v, L.LLVMConstNull(it), ""), L.LLVMConstNull(it),
                                      L.LLVMBuildAdd(B, r, L.LLVMConstInt(it, 1, 0), ""), "");
        }
        return tile__ll_new(c, rt, r, 0);
    }
    case TILE__OP_NOT: return tile__ll_new(c, rt, L.LLVMBuildNot(B, tile__ll_get(c, a), ""), 0);
    case TILE__OP_ABS:
        if (fl) return tile__ll_new(c, rt, tile__ll_fenc(c, rt, tile__ll_call1(c, t == TL_F64 ? "llvm.fabs.f64" : "llvm.fabs.f32", tile__ll_fty(c, t), tile__ll_fv(c, a))), 0);
        if (tile__is_signed(t)) {
            LLVMValueRef v = tile__ll_get(c, a);
            LLVMValueRef n = L.LLVMBuildICmp(B, LLVM_IntSLT, v, L.LLVMConstNull(tile__ll_ty(c, t)), "");
            return tile__ll_new(c, rt, L.LLVMBuildSelect(B, n, L.LLVMBuildSub(B, L.LLVMConstNull(tile__ll_ty(c, t)), v, ""), v, ""), 0);
        }
        return tile__ll_new(c, rt, tile__ll_get(c, a), 0);
    case TILE__OP_SQRT: /* llvm.sqrt is sqrt.rn, correctly rounded (libdevice's is sqrt.approx) */
        return tile__ll_new(c, rt, tile__ll_fenc(c, rt, tile__ll_call1(c, t == TL_F64 ? "llvm.sqrt.f64" : "llvm.sqrt.f32", tile__ll_fty(c, t), tile__ll_fv(c, a))), 0);
    case TILE__OP_RINT:
        /* llvm.rint: cvt.rni, ties to even. libdevice's __nv_rint through
           the H100 machine's LLVM 16/17 rounded ties away from zero (0.5
           became 1, 40.5 41), where CUDA's rint and C's do not */
        return tile__ll_new(c, rt, tile__ll_fenc(c, rt, tile__ll_call1(c, t == TL_F64 ? "llvm.rint.f64" : "llvm.rint.f32", tile__ll_fty(c, t), tile__ll_fv(c, a))), 0);
    case TILE__OP_TGAMMA:
        if (t == TL_F64) break;
        /* the smaller floats through __nv_tgamma (f64), rounded once: the
           H100 machine's LLVM 16/17 made __nv_tgammaf(0.5) gamma(-0.5) (and
           so at every half-integer), where the f64 function is right */
        y = tile__ll_math(c, "tgamma", TL_F64, L.LLVMBuildFPExt(B, tile__ll_fv(c, a), c->f64, ""), NULL);
        y = rt == TL_F32 ? L.LLVMBuildFPTrunc(B, y, c->f32, "") : tile__ll_d2f_odd(c, y);
        return tile__ll_new(c, rt, tile__ll_fenc(c, rt, y), 0);
    case TILE__OP_SIGMOID: {
        LLVMTypeRef ft = tile__ll_fty(c, t);
        LLVMValueRef ex = tile__ll_math(c, "exp", t, L.LLVMBuildFNeg(B, tile__ll_fv(c, a), ""), NULL);
        y = L.LLVMBuildFDiv(B, tile__ll_fconst(c, ft, 1.0), L.LLVMBuildFAdd(B, tile__ll_fconst(c, ft, 1.0), ex, ""), "");
        return tile__ll_new(c, rt, tile__ll_fenc(c, rt, y), 0);
    }
    case TILE__OP_CAST: return tile__ll_new(c, rt, tile__ll_cast(c, t, rt, a), 0);
    case TILE__OP_BITCAST: {
        LLVMValueRef v = tile__ll_get(c, a);
        if (tile__ll_ty(c, t) == tile__ll_ty(c, rt)) return tile__ll_new(c, rt, v, 0);
        if (t == TL_PTR) return tile__ll_new(c, rt, L.LLVMBuildBitCast(B, L.LLVMBuildPtrToInt(B, v, c->i64, ""), tile__ll_ty(c, rt), ""), 0);
        if (rt == TL_PTR) return tile__ll_new(c, rt, L.LLVMBuildIntToPtr(B, L.LLVMBuildBitCast(B, v, c->i64, ""), c->ptr, ""), 0);
        return tile__ll_new(c, rt, L.LLVMBuildBitCast(B, v, tile__ll_ty(c, rt), ""), 0);
    }
    case TILE__OP_ILOGB: case TILE__OP_LLROUND: {   /* libdevice's __nv_ilogbf (an i32), __nv_llroundf (i64); f32 or f64 */
        char fn[24];
        LLVMTypeRef ft = tile__ll_fty(c, t);
        LLVMValueRef x = tile__ll_fv(c, a);
        snprintf(fn, sizeof fn, "__nv_%s%s", code == TILE__OP_ILOGB ? "ilogb" : "llround", t == TL_F64 ? "" : "f");
        c->uses_math = 1;
        return tile__ll_new(c, rt, tile__ll_call(c, fn, tile__ll_ty(c, rt), &ft, 1, &x), 0);
    }
    /* f32 only: libdevice's __nv_saturatef, __nv_fast_expf, ... */
    case TILE__OP_SATURATE: math = "saturate"; break;
    case TILE__OP_FAST_EXP: math = "fast_exp"; break;
    case TILE__OP_FAST_LOG: math = "fast_log"; break;
    case TILE__OP_FAST_LOG2: math = "fast_log2"; break;
    case TILE__OP_FAST_LOG10: math = "fast_log10"; break;
    case TILE__OP_FAST_EXP10: math = "fast_exp10"; break;
    case TILE__OP_FAST_SIN: math = "fast_sin"; break;
    case TILE__OP_FAST_COS: math = "fast_cos"; break;
    case TILE__OP_FAST_TAN: math = "fast_tan"; break;
    default: break;
    }
    if (!math) math = tile__op_libm[code];   /* libdevice's: __nv_expf, __nv_exp (sqrt is llvm.sqrt, above) */
    if (math) return tile__ll_new(c, rt, tile__ll_fenc(c, rt, tile__ll_math(c, math, t, tile__ll_fv(c, a), NULL)), 0);
    tile__ll_missing(c, "a unary op");
    return tile__ll_new(c, rt, L.LLVMGetUndef(tile__ll_ty(c, rt)), 0);
}

/* an integer op of two operands (no side effects, no UB: x/0 and shifts past
   the width are defined) */
static LLVMValueRef tile__ll_iop2(tile__ll_em *c, tile__opcode code, tl_dtype t, tl_dtype rt, LLVMValueRef x, LLVMValueRef y) {
    LLVMBuilderRef B = c->B;
    int sgn = tile__is_signed(t);
    LLVMTypeRef ty = tile__ll_ty(c, t);
    unsigned w = tile__dt[t].bits;
    LLVMValueRef zero = L.LLVMConstNull(ty), one = L.LLVMConstInt(ty, 1, 0);
    LLVMValueRef ones = L.LLVMConstInt(ty, ~0ull, 0);
    int cmp = -1;
    /* Identities with a constant operand (the lowering's layout arithmetic is
       full of x/1, x*1, x&0, +0): answered here, they never reach the module,
       and the optimizer has that much less to fold; what it makes of them is the same. */
    long long kx = 0, ky = 0;
    int cx = tile__ll_cint(x, &kx), cy = tile__ll_cint(y, &ky);
    switch (code) {
    case TILE__OP_ADD: case TILE__OP_OR: case TILE__OP_XOR:
        if (cy && ky == 0) return x;
        if (cx && kx == 0) return y;
        break;
    case TILE__OP_SUB:
        if (cy && ky == 0) return x;
        break;
    case TILE__OP_MUL:
        if ((cy && ky == 0) || (cx && kx == 0)) return zero;
        if (cy && ky == 1 && w > 1) return x;
        if (cx && kx == 1 && w > 1) return y;
        break;
    case TILE__OP_AND:
        if ((cy && ky == 0) || (cx && kx == 0)) return zero;
        if (cy && ky == -1) return x;
        if (cx && kx == -1) return y;
        break;
    case TILE__OP_DIV: case TILE__OP_MOD:   /* a divisor other than 0 and -1 needs no guard */
        if (cy && ky == 1 && w > 1) return code == TILE__OP_DIV ? x : zero;
        if (cy && ky != 0 && !(sgn && ky == -1))
            return code == TILE__OP_DIV ? (sgn ? L.LLVMBuildSDiv(B, x, y, "") : L.LLVMBuildUDiv(B, x, y, ""))
                                        : (sgn ? L.LLVMBuildSRem(B, x, y, "") : L.LLVMBuildURem(B, x, y, ""));
        break;
    default: break;
    }
    switch (code) {
    case TILE__OP_ADD: return L.LLVMBuildAdd(B, x, y, "");
    case TILE__OP_SUB: return L.LLVMBuildSub(B, x, y, "");
    case TILE__OP_MUL: return L.LLVMBuildMul(B, x, y, "");
    case TILE__OP_DIV: case TILE__OP_MOD: {
        /* x/0 = -1 (all ones), x%0 = x, x/-1 = -x, x%-1 = 0, with no UB on the way */
        LLVMValueRef z = L.LLVMBuildICmp(B, LLVM_IntEQ, y, zero, "");
        LLVMValueRef m1 = sgn ? L.LLVMBuildICmp(B, LLVM_IntEQ, y, ones, "") : L.LLVMConstInt(c->i1, 0, 0);
        LLVMValueRef safe = L.LLVMBuildSelect(B, L.LLVMBuildOr(B, z, m1, ""), one, y, "");
        LLVMValueRef r;
        if (code == TILE__OP_DIV) {
            r = sgn ? L.LLVMBuildSDiv(B, x, safe, "") : L.LLVMBuildUDiv(B, x, safe, "");
            if (sgn) r = L.LLVMBuildSelect(B, m1, L.LLVMBuildSub(B, zero, x, ""), r, "");
            r = L.LLVMBuildSelect(B, z, ones, r, "");
        } else {
            r = sgn ? L.LLVMBuildSRem(B, x, safe, "") : L.LLVMBuildURem(B, x, safe, "");
            if (sgn) r = L.LLVMBuildSelect(B, m1, zero, r, "");
            r = L.LLVMBuildSelect(B, z, x, r, "");
        }
        return r;
    }
    case TILE__OP_MIN: case TILE__OP_MAX: {
        int p = code == TILE__OP_MIN ? (sgn ? LLVM_IntSLT : LLVM_IntULT) : (sgn ? LLVM_IntSGT : LLVM_IntUGT);
        return L.LLVMBuildSelect(B, L.LLVMBuildICmp(B, p, x, y, ""), x, y, "");
    }
    case TILE__OP_AND: return L.LLVMBuildAnd(B, x, y, "");
    case TILE__OP_OR: return L.LLVMBuildOr(B, x, y, "");
    case TILE__OP_XOR: return L.LLVMBuildXor(B, x, y, "");
    case TILE__OP_SHL: case TILE__OP_SHR: {
        /* the count as an unsigned 64-bit number; a count >= the width shifts everything out */
        LLVMValueRef n64 = w == 64 ? y : sgn ? L.LLVMBuildSExt(B, y, c->i64, "") : L.LLVMBuildZExt(B, y, c->i64, "");
        LLVMValueRef big = L.LLVMBuildICmp(B, LLVM_IntUGE, n64, tile__ll_int(c, c->i64, w), "");
        LLVMValueRef safe = L.LLVMBuildSelect(B, big, zero, y, "");
        LLVMValueRef r, out;
        if (code == TILE__OP_SHL) r = L.LLVMBuildShl(B, x, safe, ""), out = zero;
        else if (sgn) {
            r = L.LLVMBuildAShr(B, x, safe, "");
            out = L.LLVMBuildSelect(B, L.LLVMBuildICmp(B, LLVM_IntSLT, x, zero, ""), ones, zero, "");
        } else r = L.LLVMBuildLShr(B, x, safe, ""), out = zero;
        return L.LLVMBuildSelect(B, big, out, r, "");
    }
    case TILE__OP_UMULHI: case TILE__OP_MULHI: {   /* the 2N-bit product's high half; mulhi of a signed dtype sign-extends */
        LLVMTypeRef wide = L.LLVMIntTypeInContext(c->C, 2 * w);
        int se = code == TILE__OP_MULHI && sgn;
        LLVMValueRef yw = se ? L.LLVMBuildSExt(B, y, wide, "") : L.LLVMBuildZExt(B, y, wide, "");
        LLVMValueRef xw = se ? L.LLVMBuildSExt(B, x, wide, "") : L.LLVMBuildZExt(B, x, wide, "");
        LLVMValueRef p = L.LLVMBuildMul(B, xw, yw, "");
        return L.LLVMBuildTrunc(B, L.LLVMBuildLShr(B, p, L.LLVMConstInt(wide, w, 0), ""), ty, "");
    }
    case TILE__OP_HADD: case TILE__OP_UHADD: case TILE__OP_RHADD: case TILE__OP_URHADD: {
        /* libdevice's __nv_hadd, __nv_rhadd, ... bodies: (a & b) + ((a ^ b) >> 1) and (a | b) - ((a ^ b) >> 1),
           the half sum without the carry out of 32 bits; the shift arithmetic for a signed hadd or rhadd
           (an unsigned dtype's hadd is uhadd, as the other emitters have it) */
        int s = sgn && (code == TILE__OP_HADD || code == TILE__OP_RHADD);
        LLVMValueRef h = L.LLVMBuildXor(B, x, y, "");
        h = s ? L.LLVMBuildAShr(B, h, one, "") : L.LLVMBuildLShr(B, h, one, "");
        if (code == TILE__OP_HADD || code == TILE__OP_UHADD) return L.LLVMBuildAdd(B, L.LLVMBuildAnd(B, x, y, ""), h, "");
        return L.LLVMBuildSub(B, L.LLVMBuildOr(B, x, y, ""), h, "");
    }
    case TILE__OP_MUL24: case TILE__OP_UMUL24: {
        /* libdevice's __nv_mul24 / __nv_umul24: each operand's low 24 bits, by a shift up past the top
           and back down (arithmetic for a signed mul24: a signed 24-bit number), then the low product */
        LLVMValueRef up = L.LLVMConstInt(ty, w - 24, 0);
        int s = sgn && code == TILE__OP_MUL24;
        LLVMValueRef xs = L.LLVMBuildShl(B, x, up, ""), ys = L.LLVMBuildShl(B, y, up, "");
        xs = s ? L.LLVMBuildAShr(B, xs, up, "") : L.LLVMBuildLShr(B, xs, up, "");
        ys = s ? L.LLVMBuildAShr(B, ys, up, "") : L.LLVMBuildLShr(B, ys, up, "");
        return L.LLVMBuildMul(B, xs, ys, "");
    }
    case TILE__OP_EQ: cmp = LLVM_IntEQ; break;
    case TILE__OP_NE: cmp = LLVM_IntNE; break;
    case TILE__OP_LT: cmp = sgn ? LLVM_IntSLT : LLVM_IntULT; break;
    case TILE__OP_LE: cmp = sgn ? LLVM_IntSLE : LLVM_IntULE; break;
    case TILE__OP_GT: cmp = sgn ? LLVM_IntSGT : LLVM_IntUGT; break;
    case TILE__OP_GE: cmp = sgn ? LLVM_IntSGE : LLVM_IntUGE; break;
    default: break;
    }
    if (cmp >= 0) return L.LLVMBuildICmp(B, cmp, x, y, "");
    tile__ll_missing(c, "a binary integer op");
    return L.LLVMGetUndef(tile__ll_ty(c, rt));
}
static int tile__ll_op2(tile__emitter *e, tile__opcode code, tl_dtype t, tl_dtype rt, int a, int b) {
    tile__ll_em *c = tile__ll_self(e);
    LLVMBuilderRef B = c->B;
    if (tile__rnd_mode(code) >= 0) return tile__ll_rnd(c, code, t, rt, a, b, -1);
    if (code == TILE__OP_JN || code == TILE__OP_YN) {
        /* libdevice's __nv_jnf(i32 n, float x) / __nv_jn(i32, double); f16 and bf16 in f32 */
        char fn[16];
        LLVMTypeRef pt[2] = {c->i32, tile__ll_fty(c, t)};
        LLVMValueRef args[2] = {tile__ll_get(c, a), tile__ll_fv(c, b)};
        snprintf(fn, sizeof fn, "__nv_%s%s", code == TILE__OP_JN ? "jn" : "yn", t == TL_F64 ? "" : "f");
        c->uses_math = 1;
        return tile__ll_new(c, rt, tile__ll_fenc(c, rt, tile__ll_call(c, fn, pt[1], pt, 2, args)), 0);
    }
    if (code == TILE__OP_POWI || code == TILE__OP_LDEXP || code == TILE__OP_SCALBN) {
        /* libdevice's __nv_powif(float x, i32 n), __nv_ldexpf, __nv_scalbnf (f64: __nv_powi, ...): x of the
           result's dtype (f16 and bf16 in f32), n the i32 (t) */
        char fn[24];
        LLVMTypeRef pt[2] = {tile__ll_fty(c, rt), c->i32};
        LLVMValueRef args[2] = {tile__ll_fv(c, a), tile__ll_get(c, b)};
        snprintf(fn, sizeof fn, "__nv_%s%s", code == TILE__OP_POWI ? "powi" : code == TILE__OP_LDEXP ? "ldexp" : "scalbn", rt == TL_F64 ? "" : "f");
        c->uses_math = 1;
        return tile__ll_new(c, rt, tile__ll_fenc(c, rt, tile__ll_call(c, fn, pt[0], pt, 2, args)), 0);
    }
    if (tile__is_float(t)) {
        LLVMValueRef x = tile__ll_fv(c, a), y = tile__ll_fv(c, b), r = NULL;
        int cmp = -1;
        switch (code) {
        case TILE__OP_ADD: r = L.LLVMBuildFAdd(B, x, y, ""); break;
        case TILE__OP_SUB: r = L.LLVMBuildFSub(B, x, y, ""); break;
        case TILE__OP_MUL: r = L.LLVMBuildFMul(B, x, y, ""); break;
        case TILE__OP_DIV: r = L.LLVMBuildFDiv(B, x, y, ""); break;
        case TILE__OP_MOD: r = tile__ll_math(c, "fmod", t, x, y); break;
        case TILE__OP_FAST_POW: r = tile__ll_math(c, "fast_pow", t, x, y); break;      /* f32: __nv_fast_powf */
        case TILE__OP_FAST_DIV: r = tile__ll_math(c, "fast_fdivide", t, x, y); break;  /* __nv_fast_fdividef */
        case TILE__OP_MIN: r = tile__ll_call2(c, t == TL_F64 ? "llvm.minnum.f64" : "llvm.minnum.f32", tile__ll_fty(c, t), x, y); break;
        case TILE__OP_MAX: r = tile__ll_call2(c, t == TL_F64 ? "llvm.maxnum.f64" : "llvm.maxnum.f32", tile__ll_fty(c, t), x, y); break;
        case TILE__OP_MIN_NAN: case TILE__OP_MAX_NAN:   /* a NaN wins (propagate_nan) */
            if (t == TL_F64) {   /* PTX has no max.NaN.f64: maxnum, or x + y (a NaN) where either is one */
                r = tile__ll_call2(c, code == TILE__OP_MIN_NAN ? "llvm.minnum.f64" : "llvm.maxnum.f64", c->f64, x, y);
                r = L.LLVMBuildSelect(B, L.LLVMBuildFCmp(B, LLVM_RealUNO, x, y, ""), L.LLVMBuildFAdd(B, x, y, ""), r, "");
            } else   /* f32, and f16, bf16 in f32: PTX min.NaN.f32 / max.NaN.f32 (sm_80) */
                r = tile__ll_call2(c, code == TILE__OP_MIN_NAN ? "llvm.nvvm.fmin.nan.f" : "llvm.nvvm.fmax.nan.f", c->f32, x, y);
            break;
        case TILE__OP_EQ: cmp = LLVM_RealOEQ; break;
        case TILE__OP_NE: cmp = LLVM_RealUNE; break;
        case TILE__OP_LT: cmp = LLVM_RealOLT; break;
        case TILE__OP_LE: cmp = LLVM_RealOLE; break;
        case TILE__OP_GT: cmp = LLVM_RealOGT; break;
        case TILE__OP_GE: cmp = LLVM_RealOGE; break;
        default: break;
        }
        if (cmp >= 0) return tile__ll_new(c, rt, L.LLVMBuildFCmp(B, cmp, x, y, ""), 0);
        if (!r && tile__op_libm[code]) r = tile__ll_math(c, tile__op_libm[code], t, x, y);   /* tl_libdevice's two-operand ones: __nv_atan2f */
        if (r) return tile__ll_new(c, rt, tile__ll_fenc(c, rt, r), 0);
        tile__ll_missing(c, "a binary float op");
        return tile__ll_new(c, rt, L.LLVMGetUndef(tile__ll_ty(c, rt)), 0);
    }
    if (code == TILE__OP_MIN_NAN || code == TILE__OP_MAX_NAN) code = code == TILE__OP_MIN_NAN ? TILE__OP_MIN : TILE__OP_MAX;   /* integers: no NaN */
    return tile__ll_new(c, rt, tile__ll_iop2(c, code, t, rt, tile__ll_get(c, a), tile__ll_get(c, b)), 0);
}
static int tile__ll_op3(tile__emitter *e, tile__opcode code, tl_dtype t, tl_dtype rt, int a, int b, int c3) {
    tile__ll_em *c = tile__ll_self(e);
    if (tile__rnd_mode(code) >= 0) return tile__ll_rnd(c, code, t, rt, a, b, c3);
    if (code == TILE__OP_WHERE) {
        LLVMValueRef no = tile__ll_get(c, c3), yes = tile__ll_get(c, b);
        return tile__ll_new(c, rt, L.LLVMBuildSelect(c->B, tile__ll_get(c, a), yes, no, ""), 0);
    }
    if (code == TILE__OP_SAD || code == TILE__OP_USAD) {
        /* PTX sad (libdevice's __nv_sad is llvm.nvvm.sad.i): c + (a < b ? b - a : a - b), wrapping, the
           comparison signed for sad of a signed dtype; as plain IR, which the optimizer folds and ptxas maps back */
        LLVMBuilderRef B = c->B;
        LLVMValueRef x = tile__ll_get(c, a), y = tile__ll_get(c, b), z = tile__ll_get(c, c3);
        LLVMValueRef lt = L.LLVMBuildICmp(B, code == TILE__OP_SAD && tile__is_signed(t) ? LLVM_IntSLT : LLVM_IntULT, x, y, "");
        LLVMValueRef d = L.LLVMBuildSelect(B, lt, L.LLVMBuildSub(B, y, x, ""), L.LLVMBuildSub(B, x, y, ""), "");
        return tile__ll_new(c, rt, L.LLVMBuildAdd(B, d, z, ""), 0);
    }
    if (code == TILE__OP_BYTE_PERM) {
        /* libdevice's __nv_byte_perm's body: llvm.nvvm.prmt (prmt.b32, the default mode) of the selector
           with each nibble's sign-replication bit cleared (& 0x7777), without linking libdevice */
        LLVMTypeRef pt[3] = {c->i32, c->i32, c->i32};
        LLVMValueRef args[3] = {tile__ll_get(c, a), tile__ll_get(c, b), L.LLVMBuildAnd(c->B, tile__ll_get(c, c3), tile__ll_i32c(c, 0x7777), "")};
        return tile__ll_new(c, rt, tile__ll_call(c, "llvm.nvvm.prmt", c->i32, pt, 3, args), 0);
    }
    LLVMValueRef x = tile__ll_fv(c, a), y = tile__ll_fv(c, b), z = tile__ll_fv(c, c3), r;
    if (tile__op_libm[code]) {   /* tl_libdevice's three-operand ones: __nv_norm3df, __nv_rnorm3d, ... */
        char fn[40];
        LLVMTypeRef ft = tile__ll_fty(c, t), pt[3] = {ft, ft, ft};
        LLVMValueRef args[3] = {x, y, z};
        snprintf(fn, sizeof fn, "__nv_%s%s", tile__op_libm[code], t == TL_F64 ? "" : "f");
        c->uses_math = 1;
        return tile__ll_new(c, rt, tile__ll_fenc(c, rt, tile__ll_call(c, fn, ft, pt, 3, args)), 0);
    }
    if (t == TL_F32 || t == TL_F64) {
        LLVMTypeRef ft = tile__ll_fty(c, t), pt[3] = {ft, ft, ft};
        LLVMValueRef args[3] = {x, y, z};
        r = tile__ll_call(c, t == TL_F64 ? "llvm.fma.f64" : "llvm.fma.f32", ft, pt, 3, args);
    } else r = tile__ll_fma_odd(c, x, y, z);
    return tile__ll_new(c, rt, tile__ll_fenc(c, rt, r), 0);
}
/* the four-operand ops, tl_libdevice's norm4d and rnorm4d: libdevice's __nv_norm4df, ... (f16 and bf16 in f32) */
static int tile__ll_op4(tile__emitter *e, tile__opcode code, tl_dtype t, tl_dtype rt, int a, int b, int c3, int d) {
    tile__ll_em *c = tile__ll_self(e);
    char fn[40];
    LLVMTypeRef ft = tile__ll_fty(c, t), pt[4] = {ft, ft, ft, ft};
    LLVMValueRef args[4] = {tile__ll_fv(c, a), tile__ll_fv(c, b), tile__ll_fv(c, c3), tile__ll_fv(c, d)};
    if (!tile__op_libm[code]) {
        tile__ll_missing(c, "a four-operand op");
        return tile__ll_new(c, rt, L.LLVMGetUndef(tile__ll_ty(c, rt)), 0);
    }
    snprintf(fn, sizeof fn, "__nv_%s%s", tile__op_libm[code], t == TL_F64 ? "" : "f");
    c->uses_math = 1;
    return tile__ll_new(c, rt, tile__ll_fenc(c, rt, tile__ll_call(c, fn, ft, pt, 4, args)), 0);
}
static int tile__ll_ptr_add(tile__emitter *e, int p, int off, tl_dtype off_t, int elem_bytes) {
    tile__ll_em *c = tile__ll_self(e);
    LLVMValueRef o = tile__ll_get(c, off);
    if (tile__dt[off_t].bits < 64) o = tile__is_signed(off_t) ? L.LLVMBuildSExt(c->B, o, c->i64, "") : L.LLVMBuildZExt(c->B, o, c->i64, "");
    o = L.LLVMBuildMul(c->B, o, tile__ll_int(c, c->i64, elem_bytes), "");
    return tile__ll_new(c, TL_PTR, L.LLVMBuildGEP2(c->B, c->i8, tile__ll_get(c, p), &o, 1, ""), 0);
}
static int tile__ll_round_tf32(tile__emitter *e, int v) {
    tile__ll_em *c = tile__ll_self(e);
    LLVMBuilderRef B = c->B;
    LLVMValueRef u = L.LLVMBuildBitCast(B, tile__ll_get(c, v), c->i32, "");
    LLVMValueRef fin = L.LLVMBuildICmp(B, LLVM_IntNE, L.LLVMBuildAnd(B, u, tile__ll_i32c(c, 0x7f800000), ""), tile__ll_i32c(c, 0x7f800000), "");
    LLVMValueRef bump = L.LLVMBuildAdd(B, tile__ll_i32c(c, 0xfff), L.LLVMBuildAnd(B, L.LLVMBuildLShr(B, u, tile__ll_i32c(c, 13), ""), tile__ll_i32c(c, 1), ""), "");
    LLVMValueRef r = L.LLVMBuildAnd(B, L.LLVMBuildAdd(B, u, bump, ""), tile__ll_i32c(c, (long long)0xffffe000u), "");
    return tile__ll_new(c, TL_F32, L.LLVMBuildBitCast(B, L.LLVMBuildSelect(B, fin, r, u, ""), c->f32, ""), 0);
}

/* Predicated code: `from` the current block into a `then` block, which
   returns to `join`; values made in `then` meet their defaults in phis. */
typedef struct tile__ll_guard { LLVMBasicBlockRef from, then, join; int on; } tile__ll_guard;
static tile__ll_guard tile__ll_guard_begin(tile__ll_em *c, int pred) {
    tile__ll_guard g = {NULL, NULL, NULL, pred >= 0};
    if (!g.on) return g;
    LLVMValueRef p = tile__ll_get(c, pred);
    g.from = L.LLVMGetInsertBlock(c->B);
    g.then = L.LLVMAppendBasicBlockInContext(c->C, c->fn, "pred");
    g.join = L.LLVMAppendBasicBlockInContext(c->C, c->fn, "join");
    L.LLVMBuildCondBr(c->B, p, g.then, g.join);
    L.LLVMPositionBuilderAtEnd(c->B, g.then);
    return g;
}
/* close the guard; vals[k] (made inside) become phis with defaults dflt[k] */
static void tile__ll_guard_end(tile__ll_em *c, tile__ll_guard *g, int n, LLVMValueRef *vals, LLVMValueRef *dflt, LLVMTypeRef *tys) {
    if (!g->on) return;
    LLVMBasicBlockRef end = L.LLVMGetInsertBlock(c->B);
    L.LLVMBuildBr(c->B, g->join);
    L.LLVMPositionBuilderAtEnd(c->B, g->join);
    for (int k = 0; k < n; k++) {
        LLVMValueRef phi = L.LLVMBuildPhi(c->B, tys[k], "");
        LLVMValueRef in[2] = {vals[k], dflt[k]};
        LLVMBasicBlockRef bb[2] = {end, g->from};
        L.LLVMAddIncoming(phi, in, bb, 2);
        vals[k] = phi;
    }
}
static LLVMValueRef tile__ll_global(tile__ll_em *c, LLVMValueRef p) { return L.LLVMBuildAddrSpaceCast(c->B, p, c->gptr, ""); }

static void tile__ll_load(tile__emitter *e, tl_dtype t, int n, int ptr, int pred, const int *other, int *out, int cache, int evict) {
    tile__ll_em *c = tile__ll_self(e);
    LLVMBuilderRef B = c->B;
    (void)cache;
    (void)evict;
    LLVMValueRef dflt[16], vals[16];
    LLVMTypeRef tys[16];
    for (int k = 0; k < n && k < 16; k++) {
        tys[k] = tile__ll_ty(c, t);
        dflt[k] = other ? tile__ll_get(c, other[k]) : L.LLVMConstNull(tys[k]);
    }
    LLVMValueRef p = tile__ll_get(c, ptr);
    tile__ll_guard g = tile__ll_guard_begin(c, pred);
    LLVMTypeRef et = tile__ll_mty(c, t), vt = n > 1 ? L.LLVMVectorType(et, (unsigned)n) : et;
    LLVMValueRef ld = L.LLVMBuildLoad2(B, vt, tile__ll_global(c, p), "");
    L.LLVMSetAlignment(ld, (unsigned)(n * (int)tile__dt[t].bytes));
    for (int k = 0; k < n && k < 16; k++) {
        LLVMValueRef v = n > 1 ? L.LLVMBuildExtractElement(B, ld, tile__ll_i32c(c, k), "") : ld;
        if (t == TL_I1) v = L.LLVMBuildICmp(B, LLVM_IntNE, v, L.LLVMConstNull(c->i8), "");
        vals[k] = v;
    }
    tile__ll_guard_end(c, &g, n, vals, dflt, tys);
    for (int k = 0; k < n && k < 16; k++) out[k] = tile__ll_new(c, t, vals[k], 0);
}
static void tile__ll_store(tile__emitter *e, tl_dtype t, int n, int ptr, int pred, const int *vals, int cache, int evict) {
    tile__ll_em *c = tile__ll_self(e);
    LLVMBuilderRef B = c->B;
    (void)cache;
    (void)evict;
    LLVMTypeRef et = tile__ll_mty(c, t), vt = n > 1 ? L.LLVMVectorType(et, (unsigned)n) : et;
    LLVMValueRef v = n > 1 ? L.LLVMGetUndef(vt) : NULL;
    for (int k = 0; k < n; k++) {
        LLVMValueRef x = tile__ll_get(c, vals[k]);
        if (t == TL_I1) x = L.LLVMBuildZExt(B, x, c->i8, "");
        v = n > 1 ? L.LLVMBuildInsertElement(B, v, x, tile__ll_i32c(c, k), "") : x;
    }
    LLVMValueRef p = tile__ll_get(c, ptr);
    tile__ll_guard g = tile__ll_guard_begin(c, pred);
    LLVMValueRef st = L.LLVMBuildStore(B, v, tile__ll_global(c, p));
    L.LLVMSetAlignment(st, (unsigned)(n * (int)tile__dt[t].bytes));
    tile__ll_guard_end(c, &g, 0, NULL, NULL, NULL);
}
/* __threadfence(): the NVPTX of LLVM 15 cannot select an IR fence */
static void tile__ll_fence(tile__ll_em *c) {
    LLVMTypeRef ft = L.LLVMFunctionType(c->vd, NULL, 0, 0);
    L.LLVMBuildCall2(c->B, ft, L.LLVMGetInlineAsm(ft, "membar.gl;", 10, "~{memory}", 9, 1, 0, 0, 0), NULL, 0, "");
}
/* old = *p; *p = f(old, v) by compare-and-swap, for atomics the hardware lacks */
static LLVMValueRef tile__ll_cas_loop(tile__ll_em *c, int kind, tl_dtype t, LLVMValueRef p, int val) {
    LLVMBuilderRef B = c->B;
    LLVMTypeRef ty = tile__ll_ty(c, t), it = L.LLVMIntTypeInContext(c->C, tile__dt[t].bits);
    LLVMValueRef init = L.LLVMBuildLoad2(B, it, p, "");
    L.LLVMSetVolatile(init, 1);
    L.LLVMSetAlignment(init, tile__dt[t].bytes);
    LLVMBasicBlockRef from = L.LLVMGetInsertBlock(B), loop = L.LLVMAppendBasicBlockInContext(c->C, c->fn, "cas"),
                      done = L.LLVMAppendBasicBlockInContext(c->C, c->fn, "cas.done");
    L.LLVMBuildBr(B, loop);
    L.LLVMPositionBuilderAtEnd(B, loop);
    LLVMValueRef seen = L.LLVMBuildPhi(B, it, "");
    int cur = tile__ll_new(c, t, ty == it ? seen : L.LLVMBuildBitCast(B, seen, ty, ""), 0);
    static const tile__opcode ops[] = {TILE__OP_ADD, TILE__OP_MAX, TILE__OP_MIN, TILE__OP_AND, TILE__OP_OR, TILE__OP_XOR};
    int nv = kind == 6 ? val : tile__ll_op2(&c->em, ops[kind], t, t, cur, val);
    LLVMValueRef nb = tile__ll_get(c, nv);
    if (ty != it) nb = L.LLVMBuildBitCast(B, nb, it, "");
    LLVMValueRef pair = L.LLVMBuildAtomicCmpXchg(B, p, seen, nb, LLVM_Monotonic, LLVM_Monotonic, 0);
    LLVMValueRef old = L.LLVMBuildExtractValue(B, pair, 0, ""), ok = L.LLVMBuildExtractValue(B, pair, 1, "");
    LLVMBasicBlockRef end = L.LLVMGetInsertBlock(B);
    LLVMValueRef in[2] = {init, old};
    LLVMBasicBlockRef bb[2] = {from, end};
    L.LLVMAddIncoming(seen, in, bb, 2);
    L.LLVMBuildCondBr(B, ok, done, loop);
    L.LLVMPositionBuilderAtEnd(B, done);
    return ty == it ? seen : L.LLVMBuildBitCast(B, seen, ty, "");
}
static int tile__ll_atomic(tile__emitter *e, int kind, tl_dtype t, int ptr, int val, int pred, int sem, int scope) {
    tile__ll_em *c = tile__ll_self(e);
    LLVMBuilderRef B = c->B;
    (void)scope;
    LLVMTypeRef ty = tile__ll_ty(c, t);
    LLVMValueRef p = tile__ll_get(c, ptr), v = tile__ll_get(c, val), dflt = L.LLVMConstNull(ty), r;
    tile__ll_guard g = tile__ll_guard_begin(c, pred);
    LLVMValueRef gp = tile__ll_global(c, p);
    if (sem != TL_SEM_RELAXED) tile__ll_fence(c);
    int fl = tile__is_float(t), sgn = tile__is_signed(t), op = -1;
    static const int iops[] = {LLVM_RMWAdd, LLVM_RMWMax, LLVM_RMWMin, LLVM_RMWAnd, LLVM_RMWOr, LLVM_RMWXor, LLVM_RMWXchg};
    if (!fl) {
        op = iops[kind];
        if (!sgn && op == LLVM_RMWMax) op = LLVM_RMWUMax;
        if (!sgn && op == LLVM_RMWMin) op = LLVM_RMWUMin;
    } else if (kind == 0 && (t == TL_F32 || t == TL_F64)) op = LLVM_RMWFAdd;
    if (op >= 0) r = L.LLVMBuildAtomicRMW(B, op, gp, v, LLVM_Monotonic, 0);
    else if (kind == 6 && tile__ll_ty(c, t) != c->f32 && tile__ll_ty(c, t) != c->f64) r = L.LLVMBuildAtomicRMW(B, LLVM_RMWXchg, gp, v, LLVM_Monotonic, 0);
    else r = tile__ll_cas_loop(c, kind, t, gp, val);
    if (sem != TL_SEM_RELAXED) tile__ll_fence(c);
    tile__ll_guard_end(c, &g, 1, &r, &dflt, &ty);
    return tile__ll_new(c, t, r, 0);
}
static int tile__ll_cas(tile__emitter *e, tl_dtype t, int ptr, int cmp, int val, int pred, int sem, int scope) {
    tile__ll_em *c = tile__ll_self(e);
    LLVMBuilderRef B = c->B;
    (void)scope;
    LLVMTypeRef ty = tile__ll_ty(c, t), it = L.LLVMIntTypeInContext(c->C, tile__dt[t].bits);
    LLVMValueRef p = tile__ll_get(c, ptr), x = tile__ll_get(c, cmp), v = tile__ll_get(c, val), dflt = L.LLVMConstNull(ty);
    if (ty != it) x = L.LLVMBuildBitCast(B, x, it, ""), v = L.LLVMBuildBitCast(B, v, it, "");
    tile__ll_guard g = tile__ll_guard_begin(c, pred);
    if (sem != TL_SEM_RELAXED) tile__ll_fence(c);
    LLVMValueRef pair = L.LLVMBuildAtomicCmpXchg(B, tile__ll_global(c, p), x, v, LLVM_Monotonic, LLVM_Monotonic, 0);
    LLVMValueRef r = L.LLVMBuildExtractValue(B, pair, 0, "");
    if (ty != it) r = L.LLVMBuildBitCast(B, r, ty, "");
    if (sem != TL_SEM_RELAXED) tile__ll_fence(c);
    tile__ll_guard_end(c, &g, 1, &r, &dflt, &ty);
    return tile__ll_new(c, t, r, 0);
}
/* a lane's value from lane ^ mask, in 32-bit pieces */
static int tile__ll_shfl_xor(tile__emitter *e, tl_dtype t, int v, int mask) {
    tile__ll_em *c = tile__ll_self(e);
    LLVMBuilderRef B = c->B;
    LLVMTypeRef ty = tile__ll_ty(c, t), pt[4] = {c->i32, c->i32, c->i32, c->i32};
    LLVMValueRef x = tile__ll_get(c, v);
    LLVMValueRef args[4] = {tile__ll_i32c(c, -1), NULL, tile__ll_i32c(c, mask), tile__ll_i32c(c, 31)};
    if (t == TL_F32) {
        pt[1] = c->f32;
        args[1] = x;
        return tile__ll_new(c, t, tile__ll_call(c, "llvm.nvvm.shfl.sync.bfly.f32", c->f32, pt, 4, args), 0);
    }
    if (tile__dt[t].bits == 64) {
        LLVMValueRef u = t == TL_PTR ? L.LLVMBuildPtrToInt(B, x, c->i64, "") : L.LLVMBuildBitCast(B, x, c->i64, "");
        args[1] = L.LLVMBuildTrunc(B, u, c->i32, "");
        LLVMValueRef lo = tile__ll_call(c, "llvm.nvvm.shfl.sync.bfly.i32", c->i32, pt, 4, args);
        args[1] = L.LLVMBuildTrunc(B, L.LLVMBuildLShr(B, u, tile__ll_int(c, c->i64, 32), ""), c->i32, "");
        LLVMValueRef hi = tile__ll_call(c, "llvm.nvvm.shfl.sync.bfly.i32", c->i32, pt, 4, args);
        LLVMValueRef high = L.LLVMBuildShl(B, L.LLVMBuildZExt(B, hi, c->i64, ""), tile__ll_int(c, c->i64, 32), "");
        LLVMValueRef r = L.LLVMBuildOr(B, L.LLVMBuildZExt(B, lo, c->i64, ""), high, "");
        r = t == TL_PTR ? L.LLVMBuildIntToPtr(B, r, c->ptr, "") : L.LLVMBuildBitCast(B, r, ty, "");
        return tile__ll_new(c, t, r, 0);
    }
    args[1] = ty == c->i32 ? x : L.LLVMBuildZExt(B, x, c->i32, "");
    LLVMValueRef r = tile__ll_call(c, "llvm.nvvm.shfl.sync.bfly.i32", c->i32, pt, 4, args);
    return tile__ll_new(c, t, ty == c->i32 ? r : L.LLVMBuildTrunc(B, r, ty, ""), 0);
}
static LLVMValueRef tile__ll_smem_at(tile__ll_em *c, int off) {
    LLVMValueRef o = L.LLVMBuildSExt(c->B, tile__ll_get(c, off), c->i64, "");
    return L.LLVMBuildGEP2(c->B, c->i8, c->smem, &o, 1, "");
}
static void tile__ll_smem_store(tile__emitter *e, tl_dtype t, int off, int v) {
    tile__ll_em *c = tile__ll_self(e);
    LLVMValueRef x = tile__ll_get(c, v);
    if (t == TL_I1) x = L.LLVMBuildZExt(c->B, x, c->i8, "");
    LLVMValueRef st = L.LLVMBuildStore(c->B, x, tile__ll_smem_at(c, off));
    L.LLVMSetAlignment(st, tile__dt[t].bytes ? tile__dt[t].bytes : 1);
}
static int tile__ll_smem_load(tile__emitter *e, tl_dtype t, int off) {
    tile__ll_em *c = tile__ll_self(e);
    LLVMValueRef ld = L.LLVMBuildLoad2(c->B, tile__ll_mty(c, t), tile__ll_smem_at(c, off), "");
    L.LLVMSetAlignment(ld, tile__dt[t].bytes ? tile__dt[t].bytes : 1);
    if (t == TL_I1) ld = L.LLVMBuildICmp(c->B, LLVM_IntNE, ld, L.LLVMConstNull(c->i8), "");
    return tile__ll_new(c, t, ld, 0);
}
static void tile__ll_barrier(tile__emitter *e) {
    tile__ll_em *c = tile__ll_self(e);
    tile__ll_call(c, "llvm.nvvm.barrier0", c->vd, NULL, 0, NULL);
}
static int tile__ll_var(tile__emitter *e, tl_dtype t, int init) {
    tile__ll_em *c = tile__ll_self(e);
    LLVMValueRef slot = L.LLVMBuildAlloca(c->A, tile__ll_ty(c, t), "");
    L.LLVMBuildStore(c->B, init >= 0 ? tile__ll_get(c, init) : L.LLVMConstNull(tile__ll_ty(c, t)), slot);
    return tile__ll_new(c, t, slot, 1);
}
static void tile__ll_assign(tile__emitter *e, int var, int v) {
    tile__ll_em *c = tile__ll_self(e);
    L.LLVMBuildStore(c->B, tile__ll_get(c, v), c->regs[var].v);
}
static tile__ll_frame *tile__ll_push(tile__ll_em *c, int kind) {
    if (c->depth >= (int)(sizeof c->stk / sizeof c->stk[0])) {
        tile__ll_missing(c, "control flow nested deeper than 256");
        c->depth = (int)(sizeof c->stk / sizeof c->stk[0]) - 1;
    }
    tile__ll_frame *fr = &c->stk[c->depth++];
    memset(fr, 0, sizeof *fr);
    fr->kind = kind;
    return fr;
}
static void tile__ll_for_begin(tile__emitter *e, tl_dtype t, int iv, int lo, int hi, int step) {
    tile__ll_em *c = tile__ll_self(e);
    tile__ll_frame *fr = tile__ll_push(c, 0);
    fr->iv = iv;
    fr->step = step;
    fr->t = t;
    L.LLVMBuildStore(c->B, tile__ll_get(c, lo), c->regs[iv].v);
    fr->head = L.LLVMAppendBasicBlockInContext(c->C, c->fn, "for");
    LLVMBasicBlockRef body = L.LLVMAppendBasicBlockInContext(c->C, c->fn, "for.body");
    fr->exit = L.LLVMAppendBasicBlockInContext(c->C, c->fn, "for.end");
    L.LLVMBuildBr(c->B, fr->head);
    L.LLVMPositionBuilderAtEnd(c->B, fr->head);
    LLVMValueRef bound = tile__ll_get(c, hi);
    LLVMValueRef go = L.LLVMBuildICmp(c->B, tile__is_signed(t) ? LLVM_IntSLT : LLVM_IntULT, tile__ll_get(c, iv), bound, "");
    L.LLVMBuildCondBr(c->B, go, body, fr->exit);
    L.LLVMPositionBuilderAtEnd(c->B, body);
}
static void tile__ll_for_end(tile__emitter *e) {
    tile__ll_em *c = tile__ll_self(e);
    tile__ll_frame *fr = &c->stk[--c->depth];
    LLVMValueRef step = tile__ll_get(c, fr->step);
    L.LLVMBuildStore(c->B, L.LLVMBuildAdd(c->B, tile__ll_get(c, fr->iv), step, ""), c->regs[fr->iv].v);
    L.LLVMBuildBr(c->B, fr->head);
    L.LLVMPositionBuilderAtEnd(c->B, fr->exit);
}
static void tile__ll_if_begin(tile__emitter *e, int cond) {
    tile__ll_em *c = tile__ll_self(e);
    LLVMValueRef p = tile__ll_get(c, cond);
    tile__ll_frame *fr = tile__ll_push(c, 1);
    LLVMBasicBlockRef then = L.LLVMAppendBasicBlockInContext(c->C, c->fn, "then");
    fr->els = L.LLVMAppendBasicBlockInContext(c->C, c->fn, "else");
    fr->exit = L.LLVMAppendBasicBlockInContext(c->C, c->fn, "endif");
    L.LLVMBuildCondBr(c->B, p, then, fr->els);
    L.LLVMPositionBuilderAtEnd(c->B, then);
}
static void tile__ll_if_else(tile__emitter *e) {
    tile__ll_em *c = tile__ll_self(e);
    tile__ll_frame *fr = &c->stk[c->depth - 1];
    L.LLVMBuildBr(c->B, fr->exit);
    L.LLVMPositionBuilderAtEnd(c->B, fr->els);
    fr->has_else = 1;
}
static void tile__ll_if_end(tile__emitter *e) {
    tile__ll_em *c = tile__ll_self(e);
    tile__ll_frame *fr = &c->stk[--c->depth];
    L.LLVMBuildBr(c->B, fr->exit);
    if (!fr->has_else) {
        L.LLVMPositionBuilderAtEnd(c->B, fr->els);
        L.LLVMBuildBr(c->B, fr->exit);
    }
    L.LLVMPositionBuilderAtEnd(c->B, fr->exit);
}
static void tile__ll_loop_begin(tile__emitter *e) {
    tile__ll_em *c = tile__ll_self(e);
    tile__ll_frame *fr = tile__ll_push(c, 2);
    fr->head = L.LLVMAppendBasicBlockInContext(c->C, c->fn, "loop");
    fr->exit = L.LLVMAppendBasicBlockInContext(c->C, c->fn, "loop.end");
    L.LLVMBuildBr(c->B, fr->head);
    L.LLVMPositionBuilderAtEnd(c->B, fr->head);
}
static void tile__ll_break_unless(tile__emitter *e, int cond) {
    tile__ll_em *c = tile__ll_self(e);
    tile__ll_frame *fr = &c->stk[c->depth - 1];
    LLVMBasicBlockRef go = L.LLVMAppendBasicBlockInContext(c->C, c->fn, "loop.body");
    L.LLVMBuildCondBr(c->B, tile__ll_get(c, cond), go, fr->exit);
    L.LLVMPositionBuilderAtEnd(c->B, go);
}
static void tile__ll_loop_end(tile__emitter *e) {
    tile__ll_em *c = tile__ll_self(e);
    tile__ll_frame *fr = &c->stk[--c->depth];
    L.LLVMBuildBr(c->B, fr->head);
    L.LLVMPositionBuilderAtEnd(c->B, fr->exit);
}

/* vprintf(format, packed arguments), as clang calls it for CUDA's printf:
   the arguments (i32 or 64-bit) in a struct of natural alignment */
static void tile__ll_vprintf(tile__ll_em *c, const char *fmt, int n, LLVMValueRef *args, LLVMTypeRef *tys) {
    LLVMValueRef str = L.LLVMBuildGlobalStringPtr(c->B, fmt, "fmt");
    LLVMValueRef buf = L.LLVMConstNull(c->ptr);
    if (n) {
        LLVMTypeRef st = L.LLVMStructTypeInContext(c->C, tys, (unsigned)n, 0);
        buf = L.LLVMBuildAlloca(c->A, st, "");
        for (int k = 0; k < n; k++) L.LLVMBuildStore(c->B, args[k], L.LLVMBuildStructGEP2(c->B, st, buf, (unsigned)k, ""));
    }
    LLVMTypeRef pt[2] = {c->ptr, c->ptr};
    LLVMValueRef av[2] = {str, buf};
    tile__ll_call(c, "vprintf", c->i32, pt, 2, av);
}
/* append s to a printf format, with its % doubled */
static void tile__ll_fmt_text(char *fmt, size_t cap, const char *s) {
    size_t len = strlen(fmt);
    for (; *s && len + 2 < cap; s++) {
        if (*s == '%') fmt[len++] = '%';
        fmt[len++] = *s;
    }
    fmt[len] = 0;
}
static void tile__ll_print(tile__emitter *e, const char *prefix, int rank, const int *idx, tl_dtype t, int v, int pred) {
    tile__ll_em *c = tile__ll_self(e);
    LLVMBuilderRef B = c->B;
    char fmt[1024] = "pid (%d, %d, %d) ";
    LLVMValueRef args[16];
    LLVMTypeRef tys[16];
    int n = 0;
    if (v < 0) {   /* the prefix alone, after one space */
        if (!*prefix) fmt[16] = 0;   /* no space after "pid (..)" */
        tile__ll_fmt_text(fmt, sizeof fmt - 16, prefix);
        strcat(fmt, "\n");
        tile__ll_guard g = tile__ll_guard_begin(c, pred);
        for (int k = 0; k < 3; k++) {
            args[n] = tile__ll_get(c, tile__ll_special(e, 1 + k));
            tys[n++] = c->i32;
        }
        tile__ll_vprintf(c, fmt, n, args, tys);
        tile__ll_guard_end(c, &g, 0, NULL, NULL, NULL);
        return;
    }
    if (rank) {
        strcat(fmt, "idx (");
        for (int d = 0; d < rank; d++) strcat(fmt, d ? ", %d" : "%d");
        strcat(fmt, ") ");
    }
    tile__ll_fmt_text(fmt, sizeof fmt - 16, prefix);
    size_t pl = strlen(prefix);
    if (!(pl && prefix[pl - 1] == ' ')) strcat(fmt, " ");
    strcat(fmt, tile__is_float(t) ? "%.9g\n" : t == TL_PTR ? "0x%llx\n" : tile__is_signed(t) ? "%lld\n" : "%llu\n");
    LLVMValueRef val = tile__ll_get(c, v), x;
    if (tile__is_float(t)) {
        x = tile__ll_fval(c, t, val);
        if (t != TL_F64) x = L.LLVMBuildFPExt(B, x, c->f64, "");
    } else if (t == TL_PTR) x = L.LLVMBuildPtrToInt(B, val, c->i64, "");
    else if (tile__dt[t].bits == 64) x = val;
    else x = tile__is_signed(t) ? L.LLVMBuildSExt(B, val, c->i64, "") : L.LLVMBuildZExt(B, val, c->i64, "");
    LLVMValueRef idxv[TILE__MAX_RANK];
    for (int d = 0; d < rank && d < TILE__MAX_RANK; d++) idxv[d] = tile__ll_get(c, idx[d]);
    tile__ll_guard g = tile__ll_guard_begin(c, pred);
    for (int k = 0; k < 3; k++) {
        args[n] = tile__ll_get(c, tile__ll_special(e, 1 + k));
        tys[n++] = c->i32;
    }
    for (int d = 0; d < rank && d < TILE__MAX_RANK; d++) {
        args[n] = idxv[d];
        tys[n++] = c->i32;
    }
    args[n] = x;
    tys[n++] = tile__is_float(t) ? c->f64 : c->i64;
    tile__ll_vprintf(c, fmt, n, args, tys);
    tile__ll_guard_end(c, &g, 0, NULL, NULL, NULL);
}
/* A failed check records {kind, line, check, program} in the hidden last
   parameter (the first failure wins; lower.h), prints, and the kernel runs
   on (tile_assert_fail). */
static void tile__ll_check(tile__emitter *e, int cond, int kind, int id, const char *msg, const char *file, int line) {
    tile__ll_em *c = tile__ll_self(e);
    LLVMBuilderRef B = c->B;
    const char *base = file ? strrchr(file, '/') : NULL;
    LLVMValueRef ok = tile__ll_get(c, cond);
    if (kind == TILE__CHECK_ASSUME) {
        LLVMTypeRef i1 = c->i1;
        tile__ll_call(c, "llvm.assume", c->vd, &i1, 1, &ok);
        return;
    }
    LLVMBasicBlockRef fail = L.LLVMAppendBasicBlockInContext(c->C, c->fn, "assert.fail"),
                      first = L.LLVMAppendBasicBlockInContext(c->C, c->fn, "assert.first"),
                      report = L.LLVMAppendBasicBlockInContext(c->C, c->fn, "assert.report"),
                      cont = L.LLVMAppendBasicBlockInContext(c->C, c->fn, "assert.ok");
    L.LLVMBuildCondBr(B, ok, cont, fail);
    L.LLVMPositionBuilderAtEnd(B, fail);
    LLVMValueRef gerr = tile__ll_global(c, c->err);
    LLVMValueRef pair = L.LLVMBuildAtomicCmpXchg(B, gerr, tile__ll_i32c(c, 0), tile__ll_i32c(c, kind), LLVM_Monotonic, LLVM_Monotonic, 0);
    LLVMValueRef won = L.LLVMBuildExtractValue(B, pair, 1, "");
    LLVMValueRef ids[4];
    for (int k = 0; k < 3; k++) ids[k] = tile__ll_get(c, tile__ll_special(e, 1 + k));
    ids[3] = tile__ll_get(c, tile__ll_special(e, 0));
    L.LLVMBuildCondBr(B, won, first, report);
    L.LLVMPositionBuilderAtEnd(B, first);
    LLVMValueRef recv[5] = {tile__ll_i32c(c, line), tile__ll_i32c(c, id), ids[0], ids[1], ids[2]};   /* record words 1..5 */
    for (int k = 0; k < 5; k++) {
        LLVMValueRef o = tile__ll_int(c, c->i64, 1 + k);
        L.LLVMBuildStore(B, recv[k], L.LLVMBuildGEP2(B, c->i32, gerr, &o, 1, ""));
    }
    L.LLVMBuildBr(B, report);
    L.LLVMPositionBuilderAtEnd(B, report);
    char fmt[1024] = "";
    tile__ll_fmt_text(fmt, sizeof fmt - 100, base ? base + 1 : file ? file : "?");
    strcat(fmt, ":%d: tl_device_assert failed in program (%d, %d, %d), thread %d: ");
    tile__ll_fmt_text(fmt, sizeof fmt - 4, msg);
    strcat(fmt, "\n");
    LLVMValueRef args[5] = {tile__ll_i32c(c, line), ids[0], ids[1], ids[2], ids[3]};
    LLVMTypeRef tys[5] = {c->i32, c->i32, c->i32, c->i32, c->i32};
    tile__ll_vprintf(c, fmt, 5, args, tys);
    L.LLVMBuildBr(B, cont);
    L.LLVMPositionBuilderAtEnd(B, cont);
}

/* ---- tensor cores and asynchronous copies (sm_80+), as inline PTX ---------------------
   Each instruction is one inline asm call with side effects, so LLVM neither
   deletes nor reorders it against other memory operations; the warp-wide
   ones (ldmatrix, mma) are also convergent, so no pass makes them depend on
   more control flow than they had. Shared addresses go in as 32-bit
   shared-window addresses ("r"), global ones as 64-bit addresses ("l"). */
static LLVMValueRef tile__ll_asm_n(tile__ll_em *c, const char *text, const char *cons, LLVMTypeRef ret, unsigned n, LLVMTypeRef *tys,
                                   LLVMValueRef *args, int convergent) {
    LLVMTypeRef ft = L.LLVMFunctionType(ret, tys, n, 0);
    LLVMValueRef fn = L.LLVMGetInlineAsm(ft, text, strlen(text), cons, strlen(cons), 1, 0, 0, 0);
    LLVMValueRef call = L.LLVMBuildCall2(c->B, ft, fn, args, n, "");
    if (convergent) {
        unsigned kind = L.LLVMGetEnumAttributeKindForName("convergent", 10);
        if (kind) L.LLVMAddCallSiteAttribute(call, ~0u, L.LLVMCreateEnumAttribute(c->C, kind, 0));
    }
    return call;
}
/* register r as an LLVM value of type `want` (i32 <-> f32 by their bits) */
static LLVMValueRef tile__ll_as(tile__ll_em *c, int r, LLVMTypeRef want) {
    LLVMValueRef v = tile__ll_get(c, r);
    LLVMTypeRef have = r >= 0 && r < c->nregs ? tile__ll_ty(c, c->regs[r].t) : c->i32;
    if (have == want) return v;
    if (have == c->i1 || have == c->i8 || have == c->i16) v = L.LLVMBuildZExt(c->B, v, c->i32, ""), have = c->i32;
    else if (have == c->i64) v = L.LLVMBuildTrunc(c->B, v, c->i32, ""), have = c->i32;
    return have == want ? v : L.LLVMBuildBitCast(c->B, v, want, "");
}
/* the shared-window address of byte `off` of the dynamic shared memory, as an i32 */
static LLVMValueRef tile__ll_smem_addr32(tile__ll_em *c, int off) {
    return L.LLVMBuildPtrToInt(c->B, tile__ll_smem_at(c, off), c->i32, "");
}
/* >>wgmma: a descriptor, built in the IR from the shared-window address */
static LLVMValueRef tile__ll_desc(tile__ll_em *c, int off, uint64_t hi) {
    LLVMValueRef a = L.LLVMBuildAnd(c->B, L.LLVMBuildLShr(c->B, tile__ll_smem_addr32(c, off), tile__ll_i32c(c, 4), ""), tile__ll_i32c(c, 0x3FFF), "");
    return L.LLVMBuildOr(c->B, L.LLVMBuildZExt(c->B, a, c->i64, ""), L.LLVMConstInt(c->i64, (unsigned long long)hi, 0), "");
}
static LLVMTypeRef tile__ll_px_ty(tile__ll_em *c, tl_dtype t) {
    return t == TL_F32 ? c->f32 : t == TL_F64 ? c->f64 : t == TL_I64 ? c->i64 : t == TL_PTR ? c->gptr : t == TL_U16 ? c->i16 : c->i32;
}
/* an inline PTX operand's constraint letter by its dtype */
static const char *tile__ll_px_cons(tl_dtype t) {
    return t == TL_F32 ? "f" : t == TL_F64 ? "d" : t == TL_I64 || t == TL_PTR ? "l" : t == TL_U16 ? "h" : "r";
}
/* one inline PTX instruction (tile/ptx.h): outputs, then the inputs in
   order, then the in-out operands' inputs tied to their outputs; an
   input with a tie is tied too */
static void tile__ll_ptx(tile__emitter *e, const char *text, int flags, int n, tile__px *ops) {
    tile__ll_em *c = tile__ll_self(e);
    char cons[TILE__PX_MAX * 10 + 16], asmtext[4096];   /* an in-out operand takes "=f," and its tie "255," */
    LLVMTypeRef tys[TILE__PX_MAX], rs[TILE__PX_MAX];
    LLVMValueRef args[TILE__PX_MAX];
    size_t at = 0, tl = 0;
    unsigned na = 0, nr = 0;
    cons[0] = 0;
#define TILE__LL_CONS(...) (at += (size_t)snprintf(cons + at, at < sizeof cons ? sizeof cons - at : 0, __VA_ARGS__))
    for (int k = 0; k < n; k++)
        if (ops[k].role != TILE__PX_IN) {
            TILE__LL_CONS("%s=%s", at ? "," : "", tile__ll_px_cons(ops[k].t));
            rs[nr++] = tile__ll_px_ty(c, ops[k].t);
        }
    for (int k = 0; k < n; k++) {
        const tile__px *o = &ops[k];
        if (o->role != TILE__PX_IN) continue;
        LLVMTypeRef t = tile__ll_px_ty(c, o->t);
        LLVMValueRef v;
        switch (o->form) {
        case TILE__PXF_SMEM: v = tile__ll_smem_addr32(c, o->reg); break;
        case TILE__PXF_DESC: v = tile__ll_desc(c, o->reg, o->hi); break;
        case TILE__PXF_SIZE: v = L.LLVMBuildSelect(c->B, tile__ll_get(c, o->reg), tile__ll_i32c(c, (int)o->hi), tile__ll_i32c(c, 0), ""); break;
        case TILE__PXF_IMM: v = o->t == TL_I32 ? tile__ll_i32c(c, (long long)o->hi) : L.LLVMConstInt(t, (unsigned long long)o->hi, 0); break;
        default:
            v = o->t == TL_PTR ? tile__ll_global(c, tile__ll_get(c, o->reg))
                : o->t == TL_I64 || o->t == TL_F64 || o->t == TL_U16 ? tile__ll_get(c, o->reg) : tile__ll_as(c, o->reg, t);
            break;
        }
        if (o->tie >= 0) TILE__LL_CONS("%s%d", at ? "," : "", o->tie);
        else TILE__LL_CONS("%s%s", at ? "," : "", tile__ll_px_cons(o->t));
        tys[na] = t;
        args[na++] = v;
    }
    for (int k = 0, out = 0; k < n; k++) {
        if (ops[k].role == TILE__PX_IN) continue;
        if (ops[k].role == TILE__PX_INOUT) {
            TILE__LL_CONS("%s%d", at ? "," : "", out);
            tys[na] = tile__ll_px_ty(c, ops[k].t);
            args[na] = tile__ll_as(c, ops[k].reg, tys[na]);
            na++;
        }
        out++;
    }
    if (flags & TILE__PX_MEMORY) TILE__LL_CONS("%s~{memory}", at ? "," : "");
#undef TILE__LL_CONS
    /* $U: a number no other inline PTX of the kernel has */
    for (const char *t = text; *t && tl + 24 < sizeof asmtext; t++) {
        if (t[0] == '$' && t[1] == 'U') tl += (size_t)snprintf(asmtext + tl, sizeof asmtext - tl, "%d", c->uid), t++;
        else asmtext[tl++] = *t;
    }
    asmtext[tl] = 0;
    c->uid++;
    if (at >= sizeof cons || tl + 24 >= sizeof asmtext) {
        tile__ll_missing(c, "an inline PTX instruction this long");   /* the kernel goes to NVRTC */
        for (int k = 0; k < n; k++)
            if (ops[k].role != TILE__PX_IN) ops[k].reg = tile__ll_new(c, ops[k].t, L.LLVMGetUndef(tile__ll_px_ty(c, ops[k].t)), 0);
        return;
    }
    LLVMTypeRef ret = nr == 0 ? c->vd : nr == 1 ? rs[0] : L.LLVMStructTypeInContext(c->C, rs, nr, 0);
    LLVMValueRef r = tile__ll_asm_n(c, asmtext, cons, ret, na, tys, args, (flags & TILE__PX_CONVERGENT) != 0);
    for (int k = 0, out = 0; k < n; k++) {
        if (ops[k].role == TILE__PX_IN) continue;
        ops[k].reg = tile__ll_new(c, ops[k].t, nr == 1 ? r : L.LLVMBuildExtractValue(c->B, r, (unsigned)out, ""), 0);
        out++;
    }
}

/* ---- one kernel: IR, link, verify, optimize, PTX -------------------------------------- */
static double tile__ll_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}
/* The CPU and features LLVM is asked for, and whether the PTX header is
   raised afterwards: LLVM 17+ knows sm_90a and PTX 8.0; 15 and 16 are asked
   for sm_86 / PTX 7.5, and their PTX is relabelled 8.0 / sm_90a, as Triton
   does (the code for sm_86 is valid on sm_90). */
static void tile__ll_target(const char *arch, char *cpu, size_t n, char *feat, size_t fn, int *raise) {
    int num = 0;
    sscanf(arch, "sm_%d", &num);
    *raise = 0;
    if (tile__ll_major >= 17) {
        snprintf(cpu, n, "%s", arch);
        snprintf(feat, fn, "+ptx80");
    } else if (num > 86) {
        snprintf(cpu, n, "sm_86");
        snprintf(feat, fn, "+ptx75");
        *raise = 1;
    } else {
        snprintf(cpu, n, "sm_%d", num);
        snprintf(feat, fn, "+ptx75");
    }
}
typedef struct tile__ll_tm { char cpu[16]; LLVMTargetMachineRef tm; LLVMTargetDataRef td; } tile__ll_tm;
/* Kernels compile side by side, one LLVM context each (LLVM is thread-safe
   across contexts, not within one): a slot is a context with its own target
   machines, held by one compile from emit to release. A compile takes the
   first free slot, or waits for slot (its thread's turn) when all are busy;
   a tuner's precompile threads (tile_autotune.h) so compile its configs at
   once through LLVM too, as they do through NVRTC. A context keeps the types
   and constants of every module made in it, so slot 0, the one a
   single-threaded program uses, stays the only one that grows. */
enum { TILE__LL_SLOTS = 8 };
typedef struct tile__ll_slot {
    pthread_mutex_t lock;
    LLVMContextRef ctx;
    tile__ll_tm tms[8];
} tile__ll_slot;
static tile__ll_slot tile__ll_slots[TILE__LL_SLOTS];
static pthread_once_t tile__ll_slots_once = PTHREAD_ONCE_INIT;
static void tile__ll_slots_init(void) {
    for (int i = 0; i < TILE__LL_SLOTS; i++) pthread_mutex_init(&tile__ll_slots[i].lock, NULL);
}
static int tile__ll_next_slot;   /* under no lock: only which slot a waiting compile queues on */
static tile__ll_slot *tile__ll_slot_take(void) {
    pthread_once(&tile__ll_slots_once, tile__ll_slots_init);
    for (int i = 0; i < TILE__LL_SLOTS; i++)
        if (pthread_mutex_trylock(&tile__ll_slots[i].lock) == 0) return &tile__ll_slots[i];
    tile__ll_slot *s = &tile__ll_slots[(unsigned)__atomic_fetch_add(&tile__ll_next_slot, 1, __ATOMIC_RELAXED) % TILE__LL_SLOTS];
    pthread_mutex_lock(&s->lock);
    return s;
}
static const char *const tile__ll_triple = "nvptx64-nvidia-cuda";
static tile__ll_tm *tile__ll_machine(tile__ll_tm *tms, const char *cpu, const char *feat, char *err, size_t n) {
    int k = 0;
    for (; k < 8 && tms[k].tm; k++)
        if (strcmp(tms[k].cpu, cpu) == 0) return &tms[k];
    if (k == 8) k = 7;
    LLVMTargetRef T = NULL;
    char *msg = NULL;
    if (L.LLVMGetTargetFromTriple(tile__ll_triple, &T, &msg)) {
        snprintf(err, n, "LLVM has no NVPTX target: %s", msg ? msg : "?");
        if (msg) L.LLVMDisposeMessage(msg);
        return NULL;
    }
    LLVMTargetMachineRef tm = L.LLVMCreateTargetMachine(T, tile__ll_triple, cpu, feat, tile__ll_cg_level(), LLVM_RelocDefault, LLVM_CodeModelDefault);
    if (!tm) {
        snprintf(err, n, "LLVM could not make a target machine for %s %s", cpu, feat);
        return NULL;
    }
    snprintf(tms[k].cpu, sizeof tms[k].cpu, "%s", cpu);
    tms[k].tm = tm;
    tms[k].td = L.LLVMCreateTargetDataLayout(tm);
    return &tms[k];
}
/* libdevice.10.bc from the CUDA toolkit: its bytes are read once; each kernel
   that calls a math function loads it lazily (only the module's symbol table
   is read) and links in just the functions it calls, with what they call. */
static LLVMMemoryBufferRef tile__ll_get_libdevice_locked(char *err, size_t n) {
    if (tile__ll_libdevice) return tile__ll_libdevice;
    const char *roots[] = {tile__ll_kv ? tile__ll_kv->cuda_home : NULL, tile__ll_kv ? tile__ll_kv->cuda_path : NULL, "/usr/local/cuda", "/opt/cuda"};
    char path[600];
    for (int k = 0; k < 4; k++) {
        if (!roots[k] || !roots[k][0]) continue;
        snprintf(path, sizeof path, "%s/nvvm/libdevice/libdevice.10.bc", roots[k]);
        LLVMMemoryBufferRef mb = NULL;
        char *msg = NULL;
        if (!L.LLVMCreateMemoryBufferWithContentsOfFile(path, &mb, &msg)) return tile__ll_libdevice = mb;
        if (msg) L.LLVMDisposeMessage(msg);
    }
    snprintf(err, n, "math functions need libdevice.10.bc (CUDA_HOME/nvvm/libdevice); none was found");
    return NULL;
}
static LLVMMemoryBufferRef tile__ll_get_libdevice(char *err, size_t n) {
    pthread_mutex_lock(&tile__ll_libdevice_lock);
    LLVMMemoryBufferRef mb = tile__ll_get_libdevice_locked(err, n);
    pthread_mutex_unlock(&tile__ll_libdevice_lock);
    return mb;
}
/* Link into M the libdevice functions it calls. Every function of the lazily
   loaded libdevice becomes linkonce_odr, so the linker takes only those that
   M references (and, transitively, theirs) and reads only their bodies. */
static int tile__ll_link_libdevice(LLVMContextRef ctx, LLVMModuleRef M, LLVMTargetDataRef td, char *err, size_t n) {
    LLVMMemoryBufferRef bytes = tile__ll_get_libdevice(err, n);
    if (!bytes) return 0;
    LLVMMemoryBufferRef view = L.LLVMCreateMemoryBufferWithMemoryRange(L.LLVMGetBufferStart(bytes), L.LLVMGetBufferSize(bytes), "libdevice.10.bc", 0);
    LLVMModuleRef ld = NULL;
    if (!view || L.LLVMGetBitcodeModuleInContext2(ctx, view, &ld)) {   /* it owns `view` from here */
        snprintf(err, n, "LLVM could not read libdevice.10.bc");
        return 0;
    }
    L.LLVMSetTarget(ld, tile__ll_triple);
    L.LLVMSetModuleDataLayout(ld, td);
    for (LLVMValueRef g = L.LLVMGetFirstFunction(ld); g; g = L.LLVMGetNextFunction(g))
        if (!L.LLVMIsDeclaration(g)) L.LLVMSetLinkage(g, LLVM_LinkOnceODRLinkage);
    if (L.LLVMLinkModules2(M, ld)) {   /* ld is gone either way */
        snprintf(err, n, "linking libdevice failed");
        return 0;
    }
    return 1;
}
/* Relabel the PTX of an older LLVM as PTX 8.0 for `arch`. */
static char *tile__ll_raise(const char *ptx, size_t len, const char *arch) {
    char *out = (char *)malloc(len + 64);
    if (!out) return NULL;
    size_t o = 0;
    const char *p = ptx, *end = ptx + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t ln = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);
        if (strncmp(p, ".version ", 9) == 0) o += (size_t)sprintf(out + o, ".version 8.0\n");
        else if (strncmp(p, ".target ", 8) == 0) o += (size_t)sprintf(out + o, ".target %s\n", arch);
        else {
            memcpy(out + o, p, ln);
            o += ln;
        }
        p += ln;
    }
    out[o] = 0;
    return out;
}
static tile_status tile__ll_fail(tile_backend_job *job, const char *kernel, const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return job->error(TILE_ERR_COMPILE, kernel, msg);
}
/* What a job holds from emit to release: the module and the target it is
   for, in its slot (a context), which it holds all that time. */
typedef struct tile__ll_job {
    tile__ll_slot *slot;
    tile__ll_tm *tm;
    LLVMModuleRef M;
    LLVMValueRef fn;
    int uses_math, raise;
    char cpu[16], feat[32];
    double t_lower, t_verify, t_key;           /* TILE_DUMP=times */
} tile__ll_job;

/* tile_backend_hooks.emit: lower the kernel into a new module, verify it,
   and key the job on LLVM's version, the target and the module's bitcode
   (before libdevice and the optimizer, which depend only on those). */
static tile_status tile__ll_emit_locked(tile_backend_job *job, tile__ll_job *lj) {
    const tile__func *f = (const tile__func *)job->func;
    char err[512] = "";
    double t0 = tile__ll_now(), t1;
    if (job->emitter_size != (int)sizeof(tile__emitter))
        return tile__ll_fail(job, f->name, "tile_backend_llvm.c was built against another version of tile.h (emitter size %d, not %d)",
                             (int)sizeof(tile__emitter), job->emitter_size);
    if (!tile__ll_supports(job->arch, err, sizeof err)) {
        /* unless forced, the runtime hands the kernel to NVRTC, and no error is reported */
        job->unsupported = 1;
        if (!job->forced) return TILE_ERR_VALUE;
        char msg[640];
        snprintf(msg, sizeof msg, "target \"%.40s\": %s", job->arch, err);
        return job->error(TILE_ERR_VALUE, f->name, msg);
    }
    tile__ll_target(job->arch, lj->cpu, sizeof lj->cpu, lj->feat, sizeof lj->feat, &lj->raise);
    lj->tm = tile__ll_machine(lj->slot->tms, lj->cpu, lj->feat, err, sizeof err);
    if (!lj->tm) return tile__ll_fail(job, f->name, "%s", err);

    tile__ll_em c;
    memset(&c, 0, sizeof c);
    c.f = f;
    c.C = lj->slot->ctx;
    c.M = lj->M = L.LLVMModuleCreateWithNameInContext(f->name, c.C);
    L.LLVMSetTarget(c.M, tile__ll_triple);
    L.LLVMSetModuleDataLayout(c.M, lj->tm->td);
    c.i1 = L.LLVMInt1TypeInContext(c.C);
    c.i8 = L.LLVMInt8TypeInContext(c.C);
    c.i16 = L.LLVMInt16TypeInContext(c.C);
    c.i32 = L.LLVMInt32TypeInContext(c.C);
    c.i64 = L.LLVMInt64TypeInContext(c.C);
    c.f32 = L.LLVMFloatTypeInContext(c.C);
    c.f64 = L.LLVMDoubleTypeInContext(c.C);
    c.vd = L.LLVMVoidTypeInContext(c.C);
    c.ptr = L.LLVMPointerTypeInContext(c.C, 0);
    c.gptr = L.LLVMPointerTypeInContext(c.C, 1);
    c.sptr = L.LLVMPointerTypeInContext(c.C, 3);
    /* the kernel: its parameters, then the hidden assert record, then the
       tensor maps (>>tma: byval [128 x i8], align 64; never read in the IR,
       so NVPTX leaves them in .param space, where the copies read them by
       name) */
    LLVMTypeRef pts[TILE__MAX_PARAMS + 3 + 8];
    int np = f->nparams < TILE__MAX_PARAMS ? f->nparams : TILE__MAX_PARAMS, ntm = job->ntmaps > 0 && job->ntmaps <= 8 ? job->ntmaps : 0;
    for (int p = 0; p < np; p++) pts[p] = tile__ll_ty(&c, f->vals[f->pool[f->regs[0].args + p]].t.dtype);
    pts[np] = c.ptr;
    for (int t = 0; t < ntm; t++) pts[np + 1 + t] = c.ptr;
    int kp = job->prof != 0, kt = job->ktime != 0;
    if (kp) pts[np + 1 + ntm] = c.ptr;        /* >>profile: the in-kernel scopes' records, last */
    if (kt) pts[np + 1 + ntm + kp] = c.ptr;   /* and the kernel clock's slot */
    c.fn = lj->fn = L.LLVMAddFunction(c.M, f->name, L.LLVMFunctionType(c.vd, pts, (unsigned)(np + 1 + ntm + kp + kt), 0));
    L.LLVMSetFunctionCallConv(c.fn, LLVM_PTXKernelCallConv);
    for (int t = 0; t < ntm; t++) {
        unsigned byval = L.LLVMGetEnumAttributeKindForName("byval", 5), align = L.LLVMGetEnumAttributeKindForName("align", 5);
        L.LLVMAddAttributeAtIndex(c.fn, (unsigned)(np + 2 + t), L.LLVMCreateTypeAttribute(c.C, byval, L.LLVMArrayType(c.i8, 128)));
        L.LLVMAddAttributeAtIndex(c.fn, (unsigned)(np + 2 + t), L.LLVMCreateEnumAttribute(c.C, align, 64));
    }
    c.err = L.LLVMGetParam(c.fn, (unsigned)np);
    c.prof = kp ? L.LLVMGetParam(c.fn, (unsigned)(np + 1 + ntm)) : NULL;
    c.ktime = kt ? L.LLVMGetParam(c.fn, (unsigned)(np + 1 + ntm + kp)) : NULL;
    char nt[16];
    snprintf(nt, sizeof nt, "%d", job->nthreads);
    /* and .minnctapersm when the job asks (a warp-specialized kernel: tile_backend_job.min_ctas) */
    if (tile__ll_major >= 20) {
        L.LLVMAddAttributeAtIndex(c.fn, ~0u, L.LLVMCreateStringAttribute(c.C, "nvvm.maxntid", 12, nt, (unsigned)strlen(nt)));
        if (job->min_ctas > 0) {
            char mc[16];
            snprintf(mc, sizeof mc, "%d", job->min_ctas);
            L.LLVMAddAttributeAtIndex(c.fn, ~0u, L.LLVMCreateStringAttribute(c.C, "nvvm.minctasm", 13, mc, (unsigned)strlen(mc)));
        }
    } else {
        /* !nvvm.annotations: the kernel flag, .maxntid and .minnctapersm (what LLVM 15-19 read) */
        const char *keys[3] = {"kernel", "maxntidx", "minctasm"};
        int vals[3] = {1, job->nthreads, job->min_ctas};
        for (int k = 0; k < (job->min_ctas > 0 ? 3 : 2); k++) {
            LLVMMetadataRef md[3] = {L.LLVMValueAsMetadata(c.fn), L.LLVMMDStringInContext2(c.C, keys[k], strlen(keys[k])),
                                     L.LLVMValueAsMetadata(L.LLVMConstInt(c.i32, (unsigned long long)vals[k], 0))};
            L.LLVMAddNamedMetadataOperand(c.M, "nvvm.annotations", L.LLVMMetadataAsValue(c.C, L.LLVMMDNodeInContext2(c.C, md, 3)));
        }
    }
    /* the dynamic shared memory: an external array in addrspace(3), aligned
       to 1024 bytes (where wgmma's 128-byte swizzle atoms start) */
    c.smem = L.LLVMAddGlobalInAddressSpace(c.M, L.LLVMArrayType(c.i8, 0), "tile_smem", 3);
    L.LLVMSetAlignment(c.smem, 1024);
    c.entry = L.LLVMAppendBasicBlockInContext(c.C, c.fn, "entry");
    LLVMBasicBlockRef start = L.LLVMAppendBasicBlockInContext(c.C, c.fn, "start");
    c.A = L.LLVMCreateBuilderInContext(c.C);
    c.B = L.LLVMCreateBuilderInContext(c.C);
    L.LLVMPositionBuilderAtEnd(c.A, c.entry);
    L.LLVMPositionBuilderAtEnd(c.B, start);
#define TILE__LL_HOOK(ret, name, params) c.em.name = tile__ll_##name;
    TILE__EMITTER_HOOKS(TILE__LL_HOOK)
#undef TILE__LL_HOOK
    tile_status st = job->lower(job, &c.em);
    L.LLVMBuildRetVoid(c.B);
    L.LLVMBuildBr(c.A, start);
    L.LLVMDisposeBuilder(c.A);
    L.LLVMDisposeBuilder(c.B);
    free(c.regs);
    lj->uses_math = c.uses_math;
    t1 = tile__ll_now();
    lj->t_lower = t1 - t0;
    if (st == TILE_OK && c.missing[0]) {
        /* unless forced, the runtime hands the kernel to NVRTC, and no error is reported */
        job->unsupported = 1;
        st = job->forced ? tile__ll_fail(job, f->name, "the LLVM back end does not support %s yet (TILE_BACKEND=nvrtc compiles this kernel)", c.missing)
                         : TILE_ERR_COMPILE;
    }
    char *msg = NULL;
    if (st == TILE_OK && L.LLVMVerifyModule(c.M, LLVM_ReturnStatusAction, &msg)) {
        char *ir = L.LLVMPrintModuleToString(c.M);
        job->dump(f->dump_name, "llir", ir);
        L.LLVMDisposeMessage(ir);
        st = tile__ll_fail(job, f->name, "LLVM rejected the IR made for this kernel (a bug in tile; the IR is above): %s", msg ? msg : "");
    }
    if (msg) L.LLVMDisposeMessage(msg);
    double t2 = tile__ll_now();
    lj->t_verify = t2 - t1;
    if (st == TILE_OK) {
        /* the key: one line naming this LLVM and the target, then the
           module as bitcode, in hex (writing bitcode takes a fifth of the
           time of printing the module: 10 against 55 ms for a 128x256x64
           matmul, whose wgmma asm strings are long) */
        char head[800];
        int hn = snprintf(head, sizeof head, "llvm %u.%u.%u %s, %s %s%s, %s, codegen %d\n", tile__ll_major, tile__ll_minor, tile__ll_patch, tile__ll_path,
                          lj->cpu, lj->feat, lj->raise ? " raised" : "", tile__ll_pipeline(), tile__ll_cg_level());
        LLVMMemoryBufferRef bc = L.LLVMWriteBitcodeToMemoryBuffer(c.M);
        size_t n = bc ? L.LLVMGetBufferSize(bc) : 0;
        if (bc && hn > 0 && (size_t)hn < sizeof head && (job->key = (char *)malloc((size_t)hn + 2 * n + 1)) != NULL) {
            static const char hex[] = "0123456789abcdef";
            const unsigned char *b = (const unsigned char *)L.LLVMGetBufferStart(bc);
            char *o = job->key + hn;
            memcpy(job->key, head, (size_t)hn);
            for (size_t i = 0; i < n; i++) {
                *o++ = hex[b[i] >> 4];
                *o++ = hex[b[i] & 15];
            }
            *o = 0;
        }
        if (bc) L.LLVMDisposeMemoryBuffer(bc);
        if (!job->key) st = job->error(TILE_ERR_NOMEM, f->name, "out of host memory");
    }
    lj->t_key = tile__ll_now() - t2;
    return st;
}
/* tile_backend_hooks.assemble: libdevice where a math function is called,
   the optimizer (TILE_LLVM_OPT), and the PTX */
static tile_status tile__ll_assemble(tile_backend_job *job) {
    const tile__func *f = (const tile__func *)job->func;
    tile__ll_job *lj = (tile__ll_job *)job->state;
    char err[512] = "", *msg = NULL;
    tile_status st = TILE_OK;
    if (!lj || !lj->M) return tile__ll_fail(job, f->name, "assemble without emit");
    double t2 = tile__ll_now(), t3, t4, t5;
    /* libdevice, only when a math function is called; everything but the kernel internal */
    if (lj->uses_math) {
        if (!tile__ll_link_libdevice(lj->slot->ctx, lj->M, lj->tm->td, err, sizeof err)) st = tile__ll_fail(job, f->name, "%s", err);
        else
            for (LLVMValueRef g = L.LLVMGetFirstFunction(lj->M); g; g = L.LLVMGetNextFunction(g))
                if (g != lj->fn && !L.LLVMIsDeclaration(g)) L.LLVMSetLinkage(g, LLVM_InternalLinkage);
    }
    t3 = tile__ll_now();
    if (st == TILE_OK) {
        LLVMPassBuilderOptionsRef pbo = L.LLVMCreatePassBuilderOptions();
        LLVMErrorRef e = L.LLVMRunPasses(lj->M, tile__ll_pipeline(), lj->tm->tm, pbo);
        L.LLVMDisposePassBuilderOptions(pbo);
        if (e) {
            char *em = L.LLVMGetErrorMessage(e);
            st = tile__ll_fail(job, f->name, "LLVM's %s pipeline failed: %s", tile__ll_pipeline(), em);
            L.LLVMDisposeErrorMessage(em);
        }
    }
    if (st == TILE_OK && job->dump_llir) {   /* the module as the optimizer left it, under a line naming the libLLVM and pipeline that made it */
        char *ir = L.LLVMPrintModuleToString(lj->M);
        size_t n = strlen(ir) + 96;
        char *text = (char *)malloc(n);
        if (text) {
            snprintf(text, n, "; made by libLLVM %u.%u.%u (%s)\n%s", tile__ll_major, tile__ll_minor, tile__ll_patch, tile__ll_pipeline(), ir);
            job->dump(f->dump_name, "llir", text);
            free(text);
        } else {
            job->dump(f->dump_name, "llir", ir);
        }
        L.LLVMDisposeMessage(ir);
    }
    t4 = tile__ll_now();
    if (st == TILE_OK) {
        LLVMMemoryBufferRef mb = NULL;
        if (L.LLVMTargetMachineEmitToMemoryBuffer(lj->tm->tm, lj->M, LLVM_AssemblyFile, &msg, &mb)) {
            st = tile__ll_fail(job, f->name, "LLVM could not emit PTX: %s", msg ? msg : "?");
        } else {
            const char *txt = L.LLVMGetBufferStart(mb);
            size_t len = L.LLVMGetBufferSize(mb);
            if (lj->raise) job->ptx = tile__ll_raise(txt, len, job->arch);
            else if ((job->ptx = (char *)malloc(len + 1)) != NULL) {
                memcpy(job->ptx, txt, len);
                job->ptx[len] = 0;
            }
            L.LLVMDisposeMemoryBuffer(mb);
            if (!job->ptx) st = job->error(TILE_ERR_NOMEM, f->name, "out of host memory");
        }
        if (msg) L.LLVMDisposeMessage(msg);
    }
    t5 = tile__ll_now();
    if (job->times)
        fprintf(stderr, "tile: %s through LLVM %u (%s %s): lower %.2f ms, verify %.2f ms, key %.2f ms, link %.2f ms, opt %.2f ms, emit %.2f ms\n", f->name,
                tile__ll_major, lj->cpu, lj->feat, lj->t_lower, lj->t_verify, lj->t_key, t3 - t2, t4 - t3, t5 - t4);
    return st;
}
static tile_status tile__ll_emit(tile_backend_job *job) {
    char why[1024];
    job->state = NULL;
    if (!tile__ll_available(why, sizeof why)) return job->error(TILE_ERR_COMPILE, ((const tile__func *)job->func)->name, why);
    tile__ll_job *lj = (tile__ll_job *)calloc(1, sizeof *lj);
    if (!lj) return job->error(TILE_ERR_NOMEM, ((const tile__func *)job->func)->name, "out of host memory");
    lj->slot = tile__ll_slot_take();
    job->state = lj;
    if (!lj->slot->ctx && !(lj->slot->ctx = L.LLVMContextCreate())) return job->error(TILE_ERR_NOMEM, ((const tile__func *)job->func)->name, "out of host memory: an LLVM context");
    return tile__ll_emit_locked(job, lj);
}
/* tile_backend_hooks.release: the module, and the slot */
static void tile__ll_release(tile_backend_job *job) {
    tile__ll_job *lj = (tile__ll_job *)job->state;
    if (!lj) return;
    if (lj->M) L.LLVMDisposeModule(lj->M);
    pthread_mutex_unlock(&lj->slot->lock);
    free(lj);
    job->state = NULL;
}

static const tile_backend_hooks tile__ll_hooks = {"llvm", tile__ll_load_hook, tile__ll_supports, tile__ll_emit, tile__ll_assemble, tile__ll_release, 1};
#if defined(__GNUC__) || defined(__clang__)
__attribute__((constructor)) static void tile__ll_register(void) { tile_register_backend(&tile__ll_hooks); }
#else
#error "tile_backend_llvm.c registers itself from a constructor: build it with gcc or clang"
#endif
