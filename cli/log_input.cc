#include "cli/log_input.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

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
  Blocks(FILE* file, const std::string& path, const ProgressSink& progress)
      : file_(file), path_(path), progress_(progress), size_(file_size(file)), block_(kBlockBytes) {}

  // The next block, empty at the end of the file.
  std::string_view next() {
    const size_t n = std::fread(block_.data(), 1, block_.size(), file_);
    if (n == 0 && std::ferror(file_)) throw Error("reading log '" + path_ + "': " + std::strerror(errno));
    read_ += n;
    if (progress_) progress_(read_, size_);
    return {block_.data(), n};
  }

  const std::string& path() const { return path_; }

 private:
  FILE* file_;
  const std::string& path_;
  const ProgressSink& progress_;
  size_t size_, read_ = 0;
  std::vector<char> block_;
};

void read_gzip(std::string_view first, Blocks& blocks, LineSplitter& lines) {
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) throw Error("reading log: zlib failed to start");
  std::vector<char> out(kBlockBytes);
  int rc = Z_OK;
  for (std::string_view in = first; !in.empty(); in = blocks.next()) {
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    while (z.avail_in > 0) {
      z.next_out = reinterpret_cast<Bytef*>(out.data());
      z.avail_out = static_cast<uInt>(out.size());
      rc = inflate(&z, Z_NO_FLUSH);
      if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
        inflateEnd(&z);
        throw Error("reading log '" + blocks.path() + "': " + (z.msg ? z.msg : "bad data") +
                    " (a damaged .gz file?)");
      }
      lines.feed(out.data(), out.size() - z.avail_out);
      if (rc == Z_STREAM_END) inflateReset(&z);  // gzip files may hold several members
      if (rc == Z_BUF_ERROR) break;
    }
  }
  inflateEnd(&z);
}

void read_zstd(std::string_view first, Blocks& blocks, LineSplitter& lines) {
  std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> z(ZSTD_createDCtx(), ZSTD_freeDCtx);
  std::vector<char> out(ZSTD_DStreamOutSize());
  size_t last = 0;
  for (std::string_view in = first; !in.empty(); in = blocks.next()) {
    ZSTD_inBuffer input{in.data(), in.size(), 0};
    while (input.pos < input.size) {
      ZSTD_outBuffer output{out.data(), out.size(), 0};
      last = ZSTD_decompressStream(z.get(), &output, &input);
      if (ZSTD_isError(last))
        throw Error("reading log '" + blocks.path() + "': " + ZSTD_getErrorName(last) +
                    " (a damaged .zst file?)");
      lines.feed(out.data(), output.pos);
    }
  }
  if (last != 0)
    throw Error("reading log '" + blocks.path() + "': the .zst stream ends early (truncated?)");
}

}  // namespace

void read_log(const std::string& path, const BlockSink& each_block, const ProgressSink& progress) {
  std::unique_ptr<FILE, FileCloser> owned;
  FILE* file = stdin;
  if (path != "-") {
    owned.reset(std::fopen(path.c_str(), "rb"));
    if (!owned) throw Error("reading log '" + path + "': " + std::strerror(errno));
    file = owned.get();
  }
  Blocks blocks(file, path, progress);
  LineSplitter lines(each_block);
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

}  // namespace gpuerr::cli
