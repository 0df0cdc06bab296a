// Must not compile: a printer that names no section of templates/parts/ (templates.hpp), checked
// by the test test_codegen_template_names.
#include "codegen/templates.hpp"

std::string known() { return dfgc::render_part("worker_wait", {{"what", "x"}}); }
std::string unknown() { return dfgc::render_part("worker_no_such_piece"); }
