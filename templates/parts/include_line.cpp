#include $header$
