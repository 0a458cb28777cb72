/* Fuzz target: the input is a whole log file, as the merge would find it
 * on disk (framing, zstd headers, checksums, truncation, trailing bytes). */
#include "fuzz_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_read(data, size);
    return 0;
}
