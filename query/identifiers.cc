#include "query/identifiers.h"

#include <algorithm>
#include <cctype>

#include <re2/re2.h>

#include "indexer/entry.h"
#include "indexer/signature.h"
#include "query/lazy_patterns.h"

namespace gpuerr::query {
namespace {

// Numbers mean nothing alone; these are the contexts that say which table a number is from.
// Each is (family, needs, regex): the key prefix, e.g. "xid" (empty: the pattern's first group
// names it); the lower-case texts, one of which the pattern cannot match without; the pattern,
// whose last capture group is the number. Most patterns read the text in lower case, so they are
// written in lower case ((?i) would cost a third more to compile); those that need a capital
// letter to tell a name read it as written. Their blanks are `[ \t]`, never `\s`: a number
// must be on the line that names it, as "CUDA error: unknown error" followed by srun -l's "3: "
// on the next line is not CUDA error 3.
struct NumberContext {
  const char* family;
  GuardedPattern pattern;
  bool as_written = false;
  // For a pattern whose first group is the text between the family's name and the number: a
  // word that, found there, gives the number to another family ("... CUDA kernels ... NCCL
  // error: ... with error 12" is not CUDA error 12).
  const char* not_across = nullptr;
};

const std::vector<NumberContext> kNumberContexts = {
    // "NVRM: Xid (PCI:0000:3b:00): 79, pid=...", "Xid 79", and older drivers' "Xid (0000:01:00): 8"
    {"xid", {"xid", R"(\bxid\b[ \t]*(?:\([^)\n]{0,40}\))?[ \t]*[:=]?[ \t]*(\d+))"}},
    // "NCCL error 1: unhandled cuda error", "Check failed: result == ncclSuccess (1 vs. 0)"
    {"nccl", {"nccl", R"(\bnccl[ \t]+(?:error|failure)[ \t]*[:=#]?[ \t]*\(?(\d+)\b)"}},
    {"nccl", {"ncclsuccess", R"(\bncclsuccess[ \t]*\((\d+)[ \t]*vs\.?[ \t]*0\))"}},
    // NCCL traces a failure back up its call stack as "NCCL INFO init.cc:1303 -> 2"
    {"nccl", {"nccl info", R"(\bnccl info [\w/.]+:\d+ -> (\d+)\b)"}},
    // "CUDA error 700", "CUDA runtime error (700)", "cudaError 700", "cudaError_t = 700"
    {"cuda", {"cuda", R"(\bcuda(?:[ \t]+runtime)?[ \t]*error(?:_t)?(?:[ \t]+code)?[ \t]*[:=#]?[ \t]*\(?(\d+)\b)"}},
    // "(error 700)" or "error code 700" on a line that says CUDA elsewhere, with no NCCL between;
    // CUDA as a word's start ("cudaMemcpy failed with error 700"), not inside a name
    // (TensorRT's "deserializeCudaEngine::50] Error Code 4" is TensorRT's code) or a path (make's
    // "*** [ggml/src/ggml-cuda/CMakeFiles/ggml-cuda.dir/all] Error 2" is make's)
    {"cuda", {"cuda", R"((?:^|[^\w/.-])cuda([^\n]*?)\berror(?:[ \t]+code)?[ \t]*[:=#]?[ \t]*\(?(\d+)\)?)"},
     false, "nccl"},
    // "Check failed: error == cudaSuccess (2 vs. 0)" (Caffe and glog), "Return value 46 from
    // 'cudaStreamCreate(...)'"
    {"cuda", {"cudasuccess", R"(\bcudasuccess[ \t]*\((\d+)[ \t]*vs\.?[ \t]*0\))"}},
    {"cuda", {"return value", R"(\bReturn value (\d+) from '?cuda[A-Z])"}, true},
    // "CUresult 700", "CUDA_ERROR 700", "cuda driver error 700"
    {"cu", {"curesult|cuda driver", R"(\b(?:curesult|cuda[ \t]+driver[ \t]+error)[ \t]*[:=#]?[ \t]*\(?(\d+)\b)"}},
    // Numba "[716] Call to cuMemcpyDtoH results in ...", Julia "CuError(code=700, ...)",
    // "CUresult error  result=2". A driver function is "cu" and a capital ("cuD3D11GetDevice"):
    // "cudaMalloc" is the runtime's, "cublasCreate" a library's.
    {"cu", {"call to cu", R"(\[(\d+)\][ \t]*Call to cu[A-Z])"}, true},
    // TensorFlow's and XLA's stream executor: "failed call to cuInit: UNKNOWN ERROR (303)"
    {"cu", {"failed call to cu", R"(\bfailed call to cu[A-Z]\w*:[^\n(]{0,40}\((\d+)\))"}, true},
    // A driver call named with the number it failed with: CP2K's "cuInit failed with error:  34",
    // the HPC SDK's allocator "cuMemHostAlloc returns error code 201"
    {"cu", {"failed with|returns error|returned error",
            R"(\bcu[A-Z]\w*(?:\(\))?[ \t]+(?:failed with|returns|returned) (?:error[ \t]+code|error|code)[ \t]*:?[ \t]*(\d+)\b)"},
     true},
    // The NVIDIA HPC SDK's (PGI's) OpenACC runtime: "call to cuStreamSynchronize returned error
    // 700: Illegal address during kernel execution", "call to cuInit returned error 999: Unknown"
    {"cu", {"returned error", R"(\bcall to cu[A-Z]\w*[ \t]+returned error[ \t]+(\d+)\b)"}, true},
    {"cu", {"cudaapierror", R"(\bcudaapierror: \[(\d+)\])"}},
    // Ollama's GPU discovery: "cuInit err: 999", "nvcuda init failure: 999"
    {"cu", {"cuinit err|nvcuda init failure", R"(\b(?:cuinit err|nvcuda init failure):[ \t]*(\d+)\b)"}},
    {"cu", {"cuerror", R"(\bcuerror\(code[ \t]*=[ \t]*(\d+))"}},
    {"cu", {"curesult", R"(\bcuresult\b[^\n]{0,40}?\bresult[ \t]*=[ \t]*(\d+))"}},
    // The math libraries: "CURAND failure 105", "CUSPARSE ERROR (code = 7, ...)", "cuSPARSE
    // API failed ... with error: internal error (7)", "CUBLAS_STATUS_SUCCESS (13 vs. 0)"
    {"", {"cublas|cudnn|cufft|curand|cusolver|cusparse", R"(\b(cublas|cudnn|cufft|curand|cusolver|cusparse)[^\n]{0,80}?\b(?:error|failure|status)\b(?:[ \t]+at[ \t]+[^\s:]+:\d+)?(?:[ \t]*:[ \t]*[a-z ]{0,30}?)?[ \t]*[:=]?[ \t]*[(\[]?[ \t]*(?:code[ \t]*=[ \t]*)?(\d+)\b)"}},
    // DeepSpeed's cuBLAS wrappers: "!!!! kernel execution error. (m: 768, n: 2, k: 3072, error: 13)"
    {"cublas", {"kernel execution error", R"(\bkernel execution error\.[ \t]*\([^)\n]*\berror:[ \t]*(\d+)\))"}},
    // TensorFlow's "failed to make cuFFT batched plan:5"
    {"cufft", {"cufft", R"(\bcufft\b[^\n]{0,40}?\bplan[ \t]*:[ \t]*(\d+))"}},
    {"", {"_status_success", R"(\b(cublas|cudnn|cufft|curand|cusolver|cusparse)_status_success[ \t]*\((\d+)[ \t]*vs\.?[ \t]*0\))"}},
};

// The patterns of kNumberContexts, in the same order; never destroyed (no exit-time teardown).
const LazyPatterns& number_patterns() {
  static const LazyPatterns& patterns = *new LazyPatterns([] {
    std::vector<GuardedPattern> table;
    for (const NumberContext& c : kNumberContexts) table.push_back(c.pattern);
    return table;
  }());
  return patterns;
}

bool looks_like_error_name(std::string_view word) {
  if (word.size() < 6) return false;
  if (word.find('_') != std::string_view::npos) return true;
  for (size_t i = 1; i < word.size(); ++i)  // camelCase: a capital after a small letter
    if (std::isupper(static_cast<unsigned char>(word[i])) &&
        std::islower(static_cast<unsigned char>(word[i - 1])))
      return true;
  return false;
}

void add(std::vector<std::string>& keys, std::string key) {
  if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(std::move(key));
}

// Bindings print enum names in CamelCase ("cudnnStatusArchMismatch", ManagedCuda's
// "ErrorOutOfMemory"); the catalogue lists the C names (CUDNN_STATUS_ARCH_MISMATCH,
// CUDA_ERROR_OUT_OF_MEMORY). Returns the snake_case key, or empty when the word has no capitals.
std::string snake_key(std::string_view word) {
  if (word.find('_') != std::string_view::npos) return "";
  std::string out;
  for (size_t i = 0; i < word.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(word[i]);
    if (i && std::isupper(c) && std::islower(static_cast<unsigned char>(word[i - 1]))) out += '_';
    out += static_cast<char>(std::tolower(c));
  }
  return out;
}

// Adds every key `word` can stand for: itself, its snake_case form, and for a bare
// "ErrorOutOfMemory" the driver name it abbreviates.
void add_name(std::vector<std::string>& keys, std::string_view word) {
  add(keys, code_key(word));
  const std::string snake = snake_key(word);
  if (snake.empty()) return;
  add(keys, snake);
  if (snake.starts_with("error_")) add(keys, "cuda_" + snake);
}

// A driver error given in words beside the driver call that returned it, as Blender's Cycles
// and other renderers print it: "Out of memory in cuStreamCreate(...)", "ILLEGAL_ADDRESS in
// cuMemAlloc(...)", "CUDA error at cuCtxCreate: Out of memory", and since Blender 3 "Illegal
// address in CUDA queue copy_from_device (...)". For most errors the words, joined
// by '_', are the CUresult name after CUDA_ERROR_, so "cuda_error_out_of_memory" is offered and
// the catalogue knows only the real names. The words are the whole run between the call and the
// punctuation or line start before it (after it, for "at cu...:"), never a part of it: the tail
// of "Launch exceeded timeout" is "timeout", the name of another error.
void add_driver_phrases(std::vector<std::string>& keys, std::string_view text) {
  if (text.find(" cu") == std::string_view::npos && text.find(" CUDA queue ") == std::string_view::npos)
    return;
  static const RE2 before(
      R"((?m)(?:^|[^A-Za-z _])[ \t]*([A-Za-z]+(?:[ _][A-Za-z]+){0,5}) in (?:cu[A-Z]\w*\(|CUDA queue ))");
  static const RE2 after(
      R"((?m)\bat cu[A-Z]\w*: ([A-Za-z]+(?:[ _][A-Za-z]+){0,5})[ \t]*(?:$|[^A-Za-z _]))");
  std::string phrase;
  for (const RE2* pattern : {&before, &after})
    for (re2::StringPiece input(text.data(), text.size());
         RE2::FindAndConsume(&input, *pattern, &phrase);) {
      std::string key = "cuda_error_" + code_key(phrase);
      std::replace(key.begin(), key.end(), ' ', '_');
      add(keys, key);
    }
}

}  // namespace

std::vector<std::string> code_keys(std::string_view text) {
  std::vector<std::string> keys;
  size_t i = 0;
  while (i < text.size()) {
    const auto word_char = [&](size_t k) {
      const unsigned char c = static_cast<unsigned char>(text[k]);
      return std::isalnum(c) || c == '_';
    };
    if (!word_char(i)) { ++i; continue; }
    size_t end = i;
    while (end < text.size() && word_char(end)) ++end;
    const std::string_view word = text.substr(i, end - i);
    if (std::isalpha(static_cast<unsigned char>(word[0])) && looks_like_error_name(word))
      add_name(keys, word);
    i = end;
  }
  add_driver_phrases(keys, text);
  // Every number pattern captures digits: a text without any needs none of them compiled.
  if (!has_digit(text)) return keys;
  const std::string lower = ascii_lower(text);
  const LazyPatterns& patterns = number_patterns();
  for (size_t i = 0; i < patterns.size(); ++i) {
    if (!patterns.may_match(i, lower)) continue;
    const NumberContext& c = kNumberContexts[i];
    const RE2& pattern = patterns[i];
    const std::string_view read = c.as_written ? text : std::string_view(lower);
    re2::StringPiece input(read.data(), read.size());
    std::string family = c.family, number, between;
    const bool named = !family.empty();
    while (!named           ? RE2::FindAndConsume(&input, pattern, &family, &number)
           : c.not_across ? RE2::FindAndConsume(&input, pattern, &between, &number)
                          : RE2::FindAndConsume(&input, pattern, &number)) {
      if (c.not_across && between.find(c.not_across) != std::string::npos) continue;
      add(keys, code_key(family) + ":" + std::to_string(std::stoul(number.substr(0, 9))));
    }
  }
  return keys;
}

}  // namespace gpuerr::query
