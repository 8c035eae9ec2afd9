// libpcre2-8 for Swift: the 8-bit code unit width must be chosen before the header is included.
// Function-like macros (pcre2_compile, …) are not imported; Swift calls the `_8` names directly.
#ifndef SUGGEST_CPCRE2_SHIM_H
#define SUGGEST_CPCRE2_SHIM_H
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#endif
