/// \file
/// The file system Clang reads actor headers through: the real one, except that a file which is
/// not a regular file of a sane size (a FIFO, a device such as /dev/zero, a socket, a file of
/// /proc or /sys, a file over SourceManager::kMaxFileSize) cannot be opened. A header that
/// includes one gets Clang's own located error ("cannot open file '/dev/zero': a character
/// device, not a regular file") instead of a check that blocks on a FIFO or reads for ever.
#pragma once

#include <llvm/ADT/IntrusiveRefCntPtr.h>
#include <llvm/Support/VirtualFileSystem.h>

namespace dfgc::actors {

/// `base` with every open of a file that is not a regular file refused. Status queries pass
/// through, so that header search sees directories and the refused files as they are.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> regular_files_only(
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> base);

}  // namespace dfgc::actors
