#include "actors/regular_files.hpp"

#include <string>
#include <system_error>

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringRef.h>

#include "support/source_manager.hpp"

namespace dfgc::actors {

namespace {

/// Why a file cannot be read: each is an error code of the category below, whose message Clang
/// prints after "cannot open file '...': ".
enum class Refusal { fifo = 1, char_device, block_device, socket, special, pseudo, too_large };

class RefusalCategory : public std::error_category {
 public:
  const char* name() const noexcept override { return "dfgc file"; }
  std::string message(int code) const override {
    switch (static_cast<Refusal>(code)) {
      case Refusal::fifo: return "a FIFO, not a regular file";
      case Refusal::char_device: return "a character device, not a regular file";
      case Refusal::block_device: return "a block device, not a regular file";
      case Refusal::socket: return "a socket, not a regular file";
      case Refusal::special: return "not a regular file";
      case Refusal::pseudo: return "a file of /proc or /sys, whose size says nothing of its text";
      case Refusal::too_large:
        return "file too large (dfgc reads at most " +
               std::to_string(SourceManager::kMaxFileSize >> 20) + " MiB)";
    }
    return "refused";
  }
};

std::error_code refused(Refusal why) {
  static const RefusalCategory category;
  return {static_cast<int>(why), category};
}

/// Whether `path` (absolute, links resolved) lies in a file system of the kernel's own.
bool is_pseudo(llvm::StringRef path) {
  return path.starts_with("/proc/") || path.starts_with("/sys/");
}

class RegularFilesOnly : public llvm::vfs::ProxyFileSystem {
 public:
  using ProxyFileSystem::ProxyFileSystem;

  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(
      const llvm::Twine& path) override {
    // status() follows links, so a link to /dev/zero is a character device here.
    llvm::ErrorOr<llvm::vfs::Status> status = ProxyFileSystem::status(path);
    if (status) {
      using llvm::sys::fs::file_type;
      switch (status->getType()) {
        case file_type::regular_file: break;
        case file_type::directory_file: return std::make_error_code(std::errc::is_a_directory);
        case file_type::fifo_file: return refused(Refusal::fifo);
        case file_type::character_file: return refused(Refusal::char_device);
        case file_type::block_file: return refused(Refusal::block_device);
        case file_type::socket_file: return refused(Refusal::socket);
        default: return refused(Refusal::special);
      }
      if (status->getSize() > SourceManager::kMaxFileSize) return refused(Refusal::too_large);
      // Files of /proc and /sys say they are empty and are not: only those need the real path.
      llvm::SmallString<256> real;
      if (status->getSize() == 0 && !getRealPath(path, real) && is_pseudo(real))
        return refused(Refusal::pseudo);
    }
    return ProxyFileSystem::openFileForRead(path);
  }
};

}  // namespace

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> regular_files_only(
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base) {
  return llvm::makeIntrusiveRefCnt<RegularFilesOnly>(std::move(base));
}

}  // namespace dfgc::actors
