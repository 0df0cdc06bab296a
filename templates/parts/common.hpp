Sections of every printer (compiler/codegen/printer.cpp):
the pieces a printer repeats or chooses, by name. A line `@@ name` begins a section; the
newline before the next `@@` line or the file's end is not part of it (codegen/templates.hpp).

@@ include_line
#include $header$

@@ string_literal
"$text$"
