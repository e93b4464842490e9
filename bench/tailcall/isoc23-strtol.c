/* glibc 2.38 renamed strtol for C23 callers (binary literals accepted); Tailcall's
 * binary asks for that name. It parses decimal configuration values, where the
 * two agree, so the older strtol answers it. Loaded with LD_PRELOAD. */
#include <stdlib.h>

long __isoc23_strtol(const char *text, char **end, int base) { return strtol(text, end, base); }
