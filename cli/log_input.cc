#include "cli/log_input.h"

#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "indexer/error.h"
#include "query/log_line.h"

namespace gpuerr::cli {
namespace {

constexpr size_t kBlockBytes = 1 << 20;

// Cuts a byte stream into runs of whole lines, keeping a partial last line between blocks.
class LineSplitter {
 public:
  explicit LineSplitter(const BlockSink& sink) : sink_(sink) {}

  void feed(const char* data, size_t size) {
    std::string_view in(data, size);
    if (!pending_.empty() || in.find('\n') == std::string_view::npos) {
      const size_t newline = in.find('\n');
      keep(in.substr(0, newline));
      if (newline == std::string_view::npos) return;
      emit(pending_);
      pending_.clear();
      in.remove_prefix(newline + 1);
    }
    const size_t last = in.rfind('\n');
    if (last != std::string_view::npos) {
      emit(in.substr(0, last));
      in.remove_prefix(last + 1);
    }
    keep(in);
  }

  void finish() {
    if (!pending_.empty()) emit(pending_);
    pending_.clear();
  }

 private:
  void keep(std::string_view part) {
    if (pending_.size() < kMaxLineBytes)
      pending_.append(part.substr(0, kMaxLineBytes - pending_.size()));
  }

  void emit(std::string_view lines) {
    sink_(line_ + 1, lines);
    line_ += query::newlines(lines) + 1;
  }

  const BlockSink& sink_;
  std::string pending_;
  size_t line_ = 0;
};

// Runs of lines passed from the thread that reads a log (decompressing and splitting it into
// lines) to the thread that scans them, through a few reused buffers, so that reading the next
// block overlaps scanning this one: the kernel's copy of a cached file was a quarter of a triage's
// time, and inflating a .gz is slower than scanning it.
class Handoff {
 public:
  // The buffers start empty and grow to the runs they carry: a short log touches a page, not
  // 4 MiB of zeroed memory (a fifth of the time a one-line log took).
  Handoff() : free_(kBuffers) {}

  // Reading side: copies a run of lines whose first is line `first_line`. Throws Stopped once the
  // scanning side has given up, as does check_stopped(), called before each read.
  struct Stopped {};
  void check_stopped() const {
    if (stopped_) throw Stopped{};
  }
  void write(size_t first_line, std::string_view run) {
    Run filled{take_free(), run.size(), first_line};
    if (filled.bytes.size() < run.size()) filled.bytes.resize(run.size());
    std::memcpy(filled.bytes.data(), run.data(), run.size());
    const std::lock_guard lock(mutex_);
    full_.push_back(std::move(filled));
    changed_.notify_all();
  }

  // Reading side, last: the error that ended the reading, or nullptr.
  void close(std::exception_ptr error) {
    const std::lock_guard lock(mutex_);
    closed_ = true;
    error_ = error;
    changed_.notify_all();
  }

  // Scanning side: passes the runs to `sink` as they come, until the reading side closes; then
  // rethrows its error, if any.
  void scan(const BlockSink& sink) {
    std::unique_lock lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return !full_.empty() || closed_; });
      if (full_.empty()) break;
      Run run = std::move(full_.front());
      full_.pop_front();
      lock.unlock();
      sink(run.first_line, std::string_view(run.bytes.data(), run.size));
      lock.lock();
      free_.push_back(std::move(run.bytes));
      changed_.notify_all();
    }
    if (error_) std::rethrow_exception(error_);
  }

  // Scanning side, when it ends early (its sink threw): the reading side stops at its next read or
  // write (a read waiting on a quiet pipe returns first).
  void stop() {
    const std::lock_guard lock(mutex_);
    stopped_ = true;
    changed_.notify_all();
  }

 private:
  static constexpr int kBuffers = 4;
  struct Run {
    std::vector<char> bytes;
    size_t size;
    size_t first_line;
  };

  std::vector<char> take_free() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !free_.empty() || stopped_; });
    if (stopped_) throw Stopped{};
    std::vector<char> buffer = std::move(free_.back());
    free_.pop_back();
    return buffer;
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::vector<char>> free_;
  std::deque<Run> full_;
  bool closed_ = false;
  std::atomic<bool> stopped_ = false;  // also read without the mutex, by check_stopped()
  std::exception_ptr error_;
};

struct FileCloser {
  void operator()(FILE* f) const { std::fclose(f); }
};

size_t file_size(FILE* f) {
  struct stat st {};
  return fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) ? static_cast<size_t>(st.st_size) : 0;
}

// Raw blocks of the file, the first one already read (it told the format).
class Blocks {
 public:
  Blocks(FILE* file, const std::string& path, const ProgressSink& progress, const Handoff& out)
      : file_(file), path_(path), progress_(progress), out_(out), size_(file_size(file)),
        block_(std::make_unique_for_overwrite<char[]>(kBlockBytes)) {}

  // The next block, empty at the end of the file. Throws Handoff::Stopped once the scanning side
  // has given up, so that a stream with no line breaks is not read to its end for nothing.
  std::string_view next() {
    out_.check_stopped();
    const size_t n = std::fread(block_.get(), 1, kBlockBytes, file_);
    if (n == 0 && std::ferror(file_)) throw Error("reading log '" + path_ + "': " + std::strerror(errno));
    read_ += n;
    if (progress_) progress_(read_, size_);
    return {block_.get(), n};
  }

  const std::string& path() const { return path_; }

 private:
  FILE* file_;
  const std::string& path_;
  const ProgressSink& progress_;
  const Handoff& out_;
  size_t size_, read_ = 0;
  std::unique_ptr<char[]> block_;  // not zeroed: fread fills what is read
};

// inflateEnd on every way out, including a Handoff::Stopped thrown from a write.
struct Inflater {
  Inflater() {
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) throw Error("reading log: zlib failed to start");
  }
  ~Inflater() { inflateEnd(&z); }
  z_stream z{};
};

void read_gzip(std::string_view first, Blocks& blocks, LineSplitter& lines) {
  Inflater inflater;
  z_stream& z = inflater.z;
  std::vector<char> inflated(kBlockBytes);
  bool complete = false;  // the last member read to its end
  for (std::string_view in = first; !in.empty(); in = blocks.next()) {
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    do {  // until the input is used up and no output is left pending (a full buffer may hide more)
      z.next_out = reinterpret_cast<Bytef*>(inflated.data());
      z.avail_out = static_cast<uInt>(inflated.size());
      const int rc = inflate(&z, Z_NO_FLUSH);
      if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
        throw Error("reading log '" + blocks.path() + "': " + (z.msg ? z.msg : "bad data") +
                    " (a damaged .gz file?)");
      lines.feed(inflated.data(), inflated.size() - z.avail_out);
      if (rc == Z_STREAM_END) complete = true, inflateReset(&z);  // there may be more members
      if (rc == Z_OK) complete = false;
      if (rc == Z_BUF_ERROR) break;  // no progress possible: more input needed
    } while (z.avail_in > 0 || z.avail_out == 0);
  }
  if (!complete)
    throw Error("reading log '" + blocks.path() + "': the .gz stream ends early (truncated?)");
}

void read_zstd(std::string_view first, Blocks& blocks, LineSplitter& lines) {
  std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> z(ZSTD_createDCtx(), ZSTD_freeDCtx);
  std::vector<char> unpacked(ZSTD_DStreamOutSize());
  size_t last = 0;
  for (std::string_view in = first; !in.empty(); in = blocks.next()) {
    ZSTD_inBuffer input{in.data(), in.size(), 0};
    ZSTD_outBuffer output{unpacked.data(), unpacked.size(), unpacked.size()};
    // Until the input is used up and no output is left pending (a full buffer may hide more).
    while (input.pos < input.size || output.pos == output.size) {
      output.pos = 0;
      last = ZSTD_decompressStream(z.get(), &output, &input);
      if (ZSTD_isError(last))
        throw Error("reading log '" + blocks.path() + "': " + ZSTD_getErrorName(last) +
                    " (a damaged .zst file?)");
      lines.feed(unpacked.data(), output.pos);
    }
  }
  if (last != 0)
    throw Error("reading log '" + blocks.path() + "': the .zst stream ends early (truncated?)");
}

// The reading thread's work: the whole file, decompressed and cut into lines, into `out`.
void read_all(FILE* file, const std::string& path, const ProgressSink& progress, Handoff& out) {
  Blocks blocks(file, path, progress, out);
  const BlockSink write = [&](size_t first_line, std::string_view run) {
    out.write(first_line, run);
  };
  LineSplitter lines(write);
  const std::string_view first = blocks.next();
  const auto starts = [&](std::string_view magic) { return first.starts_with(magic); };
  if (starts("\x1f\x8b")) {
    read_gzip(first, blocks, lines);
  } else if (starts("\x28\xb5\x2f\xfd")) {
    read_zstd(first, blocks, lines);
  } else {
    for (std::string_view in = first; !in.empty(); in = blocks.next()) lines.feed(in.data(), in.size());
  }
  lines.finish();
}

}  // namespace

std::vector<std::string> expand_folders(const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code error;
    if (path == "-" || !fs::is_directory(path, error)) {
      files.push_back(path);  // (read_log names one that cannot be opened)
      continue;
    }
    std::vector<std::string> found;
    auto hidden = [](const fs::path& p) { return p.filename().string().starts_with('.'); };
    fs::recursive_directory_iterator it(path, error), end;
    for (; !error && it != end; it.increment(error)) {
      if (hidden(it->path())) {
        if (it->is_directory(error)) it.disable_recursion_pending();
        continue;
      }
      if (it->is_regular_file(error)) found.push_back(it->path().string());
    }
    if (error) throw Error("reading folder '" + path + "': " + error.message());
    if (found.empty()) throw Error("reading folder '" + path + "': it holds no file");
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

void read_log(const std::string& path, const BlockSink& each_block, const ProgressSink& progress) {
  std::unique_ptr<FILE, FileCloser> owned;
  FILE* file = stdin;
  if (path != "-") {
    owned.reset(std::fopen(path.c_str(), "rb"));
    if (!owned) throw Error("reading log '" + path + "': " + std::strerror(errno));
    file = owned.get();
  }
  Handoff handoff;
  const std::jthread reader([&] {
    try {
      read_all(file, path, progress, handoff);
      handoff.close(nullptr);
    } catch (...) {
      handoff.close(std::current_exception());
    }
  });
  // Destroyed before `reader` joins: if a sink throws, the reading thread must stop, not read on.
  struct StopReading {
    Handoff& handoff;
    ~StopReading() { handoff.stop(); }
  } stop_reading{handoff};
  handoff.scan(each_block);
}

}  // namespace gpuerr::cli
