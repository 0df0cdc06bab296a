/// \file
/// The layout of generated C++ and CUDA: every generated source is laid out by clang-format's
/// library (clang::format, of the libclang-cpp dfgc links for the actors, so it is there wherever
/// dfgc runs) with the style of the tree's .clang-format, compiled into dfgc: the text depends on
/// nothing but its input and dfgc's build (no file is read, no program run), and what dfgc writes
/// passes `clang-format-19 --dry-run -Werror` (ctest generated_clang_format). The printers write
/// the text and its comments; the line breaks, the alignment of trailing comments and the order of
/// the includes within a block are the formatter's.
#pragma once

#include <string>
#include <string_view>

namespace dfgc::codegen {

/// `code` laid out in the .clang-format style: its includes sorted within their blocks, then
/// reformatted. `file_name` chooses the language (every generated source is C++ or CUDA). Code
/// clang-format cannot lay out is dfgc's bug.
std::string format_cpp(std::string_view code, std::string_view file_name);

/// The .clang-format text compiled into dfgc.
std::string_view clang_format_style();

}  // namespace dfgc::codegen
