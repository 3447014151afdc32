// OnnxRuntimeApi.h: the few declarations of ONNX Runtime's C API that OnnxRuntime.cpp uses, written by hand: the
// PyPI wheel LiveScan takes the library from ships no headers, and no Debian 12 package has them (FACTS.md).
//
// Pinned library: onnxruntime 1.32.0 from PyPI, onnxruntime-1.32.0-cp311-cp311-manylinux_2_28_x86_64.whl
//   (SHA-256 5a34fc4dfeb5a7b4a74c95dcba1e773d722abda720b474edf1b0c419dc6d163d), its file
//   onnxruntime/capi/libonnxruntime.so.1.32.0 (scripts/fetch-models.sh); it serves C API versions 1...32.
//
// Layout: upstream's include/onnxruntime/core/session/onnxruntime_c_api.h at ORT_API_VERSION 29 (ONNX Runtime
//   1.29.0), as vendored verbatim by github.com/yalue/onnxruntime_go at commit
//   b4e0f0b495a4ad1eb8a2f61c0286b6e670771525. struct OrtApi only ever appends members (ONNX Runtime keeps its C ABI
//   so; GetApi(v) serves every v up to the library's own), so the prefix below (members 0...165, up to
//   AddRunConfigEntry, present since API 8) is the same in 1.29 and 1.32. Members not called are `void*`
//   placeholders named after upstream's, keeping the offsets; each member's index is in the comment before it.
//   Checked at run time by the tests: the version string, a failing call's code and message, and both networks'
//   outputs (Tests/BridgeTests/OnnxRuntimeTests.swift).
//
// GetApi is asked for ORT_API_VERSION_PINNED (32, the library's own version), so that an older library is refused
// rather than half-used.
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#define ORT_NOEXCEPT noexcept
extern "C" {
#else
#define ORT_NOEXCEPT
#endif

#define ORT_API_VERSION_PINNED 32

// onnxruntime_error_code.h (upstream), in order.
typedef enum OrtErrorCode {
    ORT_OK,
    ORT_FAIL,
    ORT_INVALID_ARGUMENT,
    ORT_NO_SUCHFILE,
    ORT_NO_MODEL,
    ORT_ENGINE_ERROR,
    ORT_RUNTIME_EXCEPTION,
    ORT_INVALID_PROTOBUF,
    ORT_MODEL_LOADED,
    ORT_NOT_IMPLEMENTED,
    ORT_INVALID_GRAPH,
    ORT_EP_FAIL,
} OrtErrorCode;

// The first values of upstream's ONNXTensorElementDataType (we only read and write floats).
typedef enum ONNXTensorElementDataType {
    ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED = 0,
    ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT = 1,
} ONNXTensorElementDataType;

typedef enum OrtLoggingLevel {
    ORT_LOGGING_LEVEL_VERBOSE,
    ORT_LOGGING_LEVEL_INFO,
    ORT_LOGGING_LEVEL_WARNING,
    ORT_LOGGING_LEVEL_ERROR,
    ORT_LOGGING_LEVEL_FATAL,
} OrtLoggingLevel;

typedef enum GraphOptimizationLevel {
    ORT_DISABLE_ALL = 0,
    ORT_ENABLE_BASIC = 1,
    ORT_ENABLE_EXTENDED = 2,
    ORT_ENABLE_LAYOUT = 3,
    ORT_ENABLE_ALL = 99,
} GraphOptimizationLevel;

typedef enum ExecutionMode {
    ORT_SEQUENTIAL = 0,
    ORT_PARALLEL = 1,
} ExecutionMode;

typedef enum OrtAllocatorType {
    OrtInvalidAllocator = -1,
    OrtDeviceAllocator = 0,
    OrtArenaAllocator = 1,
    OrtReadOnlyAllocator = 2,
} OrtAllocatorType;

typedef enum OrtMemType {
    OrtMemTypeCPUInput = -2,
    OrtMemTypeCPUOutput = -1,
    OrtMemTypeCPU = OrtMemTypeCPUOutput,
    OrtMemTypeDefault = 0,
} OrtMemType;

// Opaque handles.
typedef struct OrtEnv OrtEnv;
typedef struct OrtStatus OrtStatus;  // NULL means success
typedef struct OrtMemoryInfo OrtMemoryInfo;
typedef struct OrtSession OrtSession;
typedef struct OrtValue OrtValue;
typedef struct OrtRunOptions OrtRunOptions;
typedef struct OrtTensorTypeAndShapeInfo OrtTensorTypeAndShapeInfo;
typedef struct OrtSessionOptions OrtSessionOptions;
typedef struct OrtAllocator OrtAllocator;  // a struct of function pointers upstream; only passed by pointer here

typedef struct OrtApi OrtApi;

typedef struct OrtApiBase {
    const OrtApi *(*GetApi)(uint32_t version)ORT_NOEXCEPT;  // NULL when the library does not serve `version`
    const char *(*GetVersionString)(void)ORT_NOEXCEPT;
} OrtApiBase;

// The library's one exported entry point (looked up with dlsym).
typedef const OrtApiBase *(*OrtGetApiBaseFunction)(void);

struct OrtApi {
    /*   0 */ void *CreateStatus;
    /*   1 */ OrtErrorCode (*GetErrorCode)(const OrtStatus *status) ORT_NOEXCEPT;
    /*   2 */ const char *(*GetErrorMessage)(const OrtStatus *status)ORT_NOEXCEPT;
    /*   3 */ OrtStatus *(*CreateEnv)(OrtLoggingLevel log_severity_level, const char *logid, OrtEnv **out)ORT_NOEXCEPT;
    /*   4 */ void *CreateEnvWithCustomLogger;
    /*   5 */ void *EnableTelemetryEvents;
    /*   6 */ OrtStatus *(*DisableTelemetryEvents)(const OrtEnv *env)ORT_NOEXCEPT;
    /*   7 */ OrtStatus *(*CreateSession)(const OrtEnv *env, const char *model_path, const OrtSessionOptions *options,
                                          OrtSession **out)ORT_NOEXCEPT;
    /*   8 */ void *CreateSessionFromArray;
    /*   9 */ OrtStatus *(*Run)(OrtSession *session, const OrtRunOptions *run_options, const char *const *input_names,
                                const OrtValue *const *inputs, size_t input_len, const char *const *output_names,
                                size_t output_names_len, OrtValue **outputs)ORT_NOEXCEPT;
    /*  10 */ OrtStatus *(*CreateSessionOptions)(OrtSessionOptions **options)ORT_NOEXCEPT;
    /*  11 */ void *SetOptimizedModelFilePath;
    /*  12 */ void *CloneSessionOptions;
    /*  13 */ OrtStatus *(*SetSessionExecutionMode)(OrtSessionOptions *options,
                                                    ExecutionMode execution_mode)ORT_NOEXCEPT;
    /*  14 */ void *EnableProfiling;
    /*  15 */ void *DisableProfiling;
    /*  16 */ void *EnableMemPattern;
    /*  17 */ void *DisableMemPattern;
    /*  18 */ OrtStatus *(*EnableCpuMemArena)(OrtSessionOptions *options)ORT_NOEXCEPT;
    /*  19 */ OrtStatus *(*DisableCpuMemArena)(OrtSessionOptions *options)ORT_NOEXCEPT;
    /*  20 */ void *SetSessionLogId;
    /*  21 */ void *SetSessionLogVerbosityLevel;
    /*  22 */ void *SetSessionLogSeverityLevel;
    /*  23 */ OrtStatus *(*SetSessionGraphOptimizationLevel)(
        OrtSessionOptions *options, GraphOptimizationLevel graph_optimization_level)ORT_NOEXCEPT;
    /*  24 */ OrtStatus *(*SetIntraOpNumThreads)(OrtSessionOptions *options, int intra_op_num_threads)ORT_NOEXCEPT;
    /*  25 */ OrtStatus *(*SetInterOpNumThreads)(OrtSessionOptions *options, int inter_op_num_threads)ORT_NOEXCEPT;
    /*  26 */ void *CreateCustomOpDomain;
    /*  27 */ void *CustomOpDomain_Add;
    /*  28 */ void *AddCustomOpDomain;
    /*  29 */ void *RegisterCustomOpsLibrary;
    /*  30 */ OrtStatus *(*SessionGetInputCount)(const OrtSession *session, size_t *out)ORT_NOEXCEPT;
    /*  31 */ OrtStatus *(*SessionGetOutputCount)(const OrtSession *session, size_t *out)ORT_NOEXCEPT;
    /*  32 */ void *SessionGetOverridableInitializerCount;
    /*  33 */ void *SessionGetInputTypeInfo;
    /*  34 */ void *SessionGetOutputTypeInfo;
    /*  35 */ void *SessionGetOverridableInitializerTypeInfo;
    /*  36 */ OrtStatus *(*SessionGetInputName)(const OrtSession *session, size_t index, OrtAllocator *allocator,
                                                char **value)ORT_NOEXCEPT;
    /*  37 */ OrtStatus *(*SessionGetOutputName)(const OrtSession *session, size_t index, OrtAllocator *allocator,
                                                 char **value)ORT_NOEXCEPT;
    /*  38 */ void *SessionGetOverridableInitializerName;
    /*  39 */ OrtStatus *(*CreateRunOptions)(OrtRunOptions **out)ORT_NOEXCEPT;
    /*  40 */ void *RunOptionsSetRunLogVerbosityLevel;
    /*  41 */ void *RunOptionsSetRunLogSeverityLevel;
    /*  42 */ void *RunOptionsSetRunTag;
    /*  43 */ void *RunOptionsGetRunLogVerbosityLevel;
    /*  44 */ void *RunOptionsGetRunLogSeverityLevel;
    /*  45 */ void *RunOptionsGetRunTag;
    /*  46 */ OrtStatus *(*RunOptionsSetTerminate)(OrtRunOptions *options)ORT_NOEXCEPT;
    /*  47 */ void *RunOptionsUnsetTerminate;
    /*  48 */ void *CreateTensorAsOrtValue;
    /*  49 */ OrtStatus *(*CreateTensorWithDataAsOrtValue)(const OrtMemoryInfo *info, void *p_data, size_t p_data_len,
                                                           const int64_t *shape, size_t shape_len,
                                                           ONNXTensorElementDataType type, OrtValue **out)ORT_NOEXCEPT;
    /*  50 */ void *IsTensor;
    /*  51 */ OrtStatus *(*GetTensorMutableData)(OrtValue *value, void **out)ORT_NOEXCEPT;
    /*  52 */ void *FillStringTensor;
    /*  53 */ void *GetStringTensorDataLength;
    /*  54 */ void *GetStringTensorContent;
    /*  55 */ void *CastTypeInfoToTensorInfo;
    /*  56 */ void *GetOnnxTypeFromTypeInfo;
    /*  57 */ void *CreateTensorTypeAndShapeInfo;
    /*  58 */ void *SetTensorElementType;
    /*  59 */ void *SetDimensions;
    /*  60 */ OrtStatus *(*GetTensorElementType)(const OrtTensorTypeAndShapeInfo *info,
                                                 ONNXTensorElementDataType *out)ORT_NOEXCEPT;
    /*  61 */ OrtStatus *(*GetDimensionsCount)(const OrtTensorTypeAndShapeInfo *info, size_t *out)ORT_NOEXCEPT;
    /*  62 */ OrtStatus *(*GetDimensions)(const OrtTensorTypeAndShapeInfo *info, int64_t *dim_values,
                                          size_t dim_values_length)ORT_NOEXCEPT;
    /*  63 */ void *GetSymbolicDimensions;
    /*  64 */ OrtStatus *(*GetTensorShapeElementCount)(const OrtTensorTypeAndShapeInfo *info, size_t *out)ORT_NOEXCEPT;
    /*  65 */ OrtStatus *(*GetTensorTypeAndShape)(const OrtValue *value, OrtTensorTypeAndShapeInfo **out)ORT_NOEXCEPT;
    /*  66 */ void *GetTypeInfo;
    /*  67 */ void *GetValueType;
    /*  68 */ void *CreateMemoryInfo;
    /*  69 */ OrtStatus *(*CreateCpuMemoryInfo)(OrtAllocatorType type, OrtMemType mem_type,
                                                OrtMemoryInfo **out)ORT_NOEXCEPT;
    /*  70 */ void *CompareMemoryInfo;
    /*  71 */ void *MemoryInfoGetName;
    /*  72 */ void *MemoryInfoGetId;
    /*  73 */ void *MemoryInfoGetMemType;
    /*  74 */ void *MemoryInfoGetType;
    /*  75 */ void *AllocatorAlloc;
    /*  76 */ OrtStatus *(*AllocatorFree)(OrtAllocator *ort_allocator, void *p)ORT_NOEXCEPT;
    /*  77 */ void *AllocatorGetInfo;
    /*  78 */ OrtStatus *(*GetAllocatorWithDefaultOptions)(OrtAllocator **out)ORT_NOEXCEPT;
    /*  79 */ void *AddFreeDimensionOverride;
    /*  80 */ void *GetValue;
    /*  81 */ void *GetValueCount;
    /*  82 */ void *CreateValue;
    /*  83 */ void *CreateOpaqueValue;
    /*  84 */ void *GetOpaqueValue;
    /*  85 */ void *KernelInfoGetAttribute_float;
    /*  86 */ void *KernelInfoGetAttribute_int64;
    /*  87 */ void *KernelInfoGetAttribute_string;
    /*  88 */ void *KernelContext_GetInputCount;
    /*  89 */ void *KernelContext_GetOutputCount;
    /*  90 */ void *KernelContext_GetInput;
    /*  91 */ void *KernelContext_GetOutput;
    /*  92 */ void (*ReleaseEnv)(OrtEnv *input) ORT_NOEXCEPT;
    /*  93 */ void (*ReleaseStatus)(OrtStatus *input) ORT_NOEXCEPT;
    /*  94 */ void (*ReleaseMemoryInfo)(OrtMemoryInfo *input) ORT_NOEXCEPT;
    /*  95 */ void (*ReleaseSession)(OrtSession *input) ORT_NOEXCEPT;
    /*  96 */ void (*ReleaseValue)(OrtValue *input) ORT_NOEXCEPT;
    /*  97 */ void (*ReleaseRunOptions)(OrtRunOptions *input) ORT_NOEXCEPT;
    /*  98 */ void *ReleaseTypeInfo;
    /*  99 */ void (*ReleaseTensorTypeAndShapeInfo)(OrtTensorTypeAndShapeInfo *input) ORT_NOEXCEPT;
    /* 100 */ void (*ReleaseSessionOptions)(OrtSessionOptions *input) ORT_NOEXCEPT;
    /* 101 */ void *ReleaseCustomOpDomain;
    /* 102 */ void *GetDenotationFromTypeInfo;
    /* 103 */ void *CastTypeInfoToMapTypeInfo;
    /* 104 */ void *CastTypeInfoToSequenceTypeInfo;
    /* 105 */ void *GetMapKeyType;
    /* 106 */ void *GetMapValueType;
    /* 107 */ void *GetSequenceElementType;
    /* 108 */ void *ReleaseMapTypeInfo;
    /* 109 */ void *ReleaseSequenceTypeInfo;
    /* 110 */ void *SessionEndProfiling;
    /* 111 */ void *SessionGetModelMetadata;
    /* 112 */ void *ModelMetadataGetProducerName;
    /* 113 */ void *ModelMetadataGetGraphName;
    /* 114 */ void *ModelMetadataGetDomain;
    /* 115 */ void *ModelMetadataGetDescription;
    /* 116 */ void *ModelMetadataLookupCustomMetadataMap;
    /* 117 */ void *ModelMetadataGetVersion;
    /* 118 */ void *ReleaseModelMetadata;
    /* 119 */ void *CreateEnvWithGlobalThreadPools;
    /* 120 */ void *DisablePerSessionThreads;
    /* 121 */ void *CreateThreadingOptions;
    /* 122 */ void *ReleaseThreadingOptions;
    /* 123 */ void *ModelMetadataGetCustomMetadataMapKeys;
    /* 124 */ void *AddFreeDimensionOverrideByName;
    /* 125 */ void *GetAvailableProviders;
    /* 126 */ void *ReleaseAvailableProviders;
    /* 127 */ void *GetStringTensorElementLength;
    /* 128 */ void *GetStringTensorElement;
    /* 129 */ void *FillStringTensorElement;
    /* 130 */ OrtStatus *(*AddSessionConfigEntry)(OrtSessionOptions *options, const char *config_key,
                                                  const char *config_value)ORT_NOEXCEPT;
    /* 131 */ void *CreateAllocator;
    /* 132 */ void *ReleaseAllocator;
    /* 133 */ void *RunWithBinding;
    /* 134 */ void *CreateIoBinding;
    /* 135 */ void *ReleaseIoBinding;
    /* 136 */ void *BindInput;
    /* 137 */ void *BindOutput;
    /* 138 */ void *BindOutputToDevice;
    /* 139 */ void *GetBoundOutputNames;
    /* 140 */ void *GetBoundOutputValues;
    /* 141 */ void *ClearBoundInputs;
    /* 142 */ void *ClearBoundOutputs;
    /* 143 */ void *TensorAt;
    /* 144 */ void *CreateAndRegisterAllocator;
    /* 145 */ void *SetLanguageProjection;
    /* 146 */ void *SessionGetProfilingStartTimeNs;
    /* 147 */ void *SetGlobalIntraOpNumThreads;
    /* 148 */ void *SetGlobalInterOpNumThreads;
    /* 149 */ void *SetGlobalSpinControl;
    /* 150 */ void *AddInitializer;
    /* 151 */ void *CreateEnvWithCustomLoggerAndGlobalThreadPools;
    /* 152 */ void *SessionOptionsAppendExecutionProvider_CUDA;
    /* 153 */ void *SessionOptionsAppendExecutionProvider_ROCM;
    /* 154 */ void *SessionOptionsAppendExecutionProvider_OpenVINO;
    /* 155 */ void *SetGlobalDenormalAsZero;
    /* 156 */ void *CreateArenaCfg;
    /* 157 */ void *ReleaseArenaCfg;
    /* 158 */ void *ModelMetadataGetGraphDescription;
    /* 159 */ void *SessionOptionsAppendExecutionProvider_TensorRT;
    /* 160 */ void *SetCurrentGpuDeviceId;
    /* 161 */ void *GetCurrentGpuDeviceId;
    /* 162 */ void *KernelInfoGetAttributeArray_float;
    /* 163 */ void *KernelInfoGetAttributeArray_int64;
    /* 164 */ void *CreateArenaCfgV2;
    /* 165 */ OrtStatus *(*AddRunConfigEntry)(OrtRunOptions *options, const char *config_key,
                                              const char *config_value)ORT_NOEXCEPT;
    // ... upstream's later members (166 and on) are not declared: this struct is only read through a pointer.
};

#ifdef __cplusplus
}
#endif
