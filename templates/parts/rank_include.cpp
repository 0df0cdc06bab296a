#include "$path$"
