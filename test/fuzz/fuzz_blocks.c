/*
 * Fuzz target: the input is a sequence of block contents, which this target
 * frames as a writer would (block header with a correct magic and length,
 * one checksummed zstd frame per block) before the reader sees the file.
 * Mutations then reach the header, record and clock parsers behind the
 * checksums instead of stopping at them.
 *
 * Input: repeated [kind u8][thread u8][length u32 LE][length bytes]; a
 * length past the end of the input takes what is left. Fewer than 6
 * remaining bytes are appended to the file raw (a cut or junk at its end).
 */
#include <zstd.h>

#include "fuzz_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_FILE (4u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static ZSTD_CCtx *cctx;
    static uint8_t *file, *block;
    if (!cctx) {
        cctx = ZSTD_createCCtx();
        file = malloc(MAX_FILE);
        block = malloc(MAX_FILE);
        fuzz_check(cctx && file && block, "fuzz buffers", NULL);
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_contentSizeFlag, 1);
        ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 1);
    }
    size_t out = 0, pos = 0;
    while (size - pos >= 6) {
        uint32_t len;
        memcpy(&len, data + pos + 2, 4);
        size_t avail = size - pos - 6;
        if (len > avail)
            len = (uint32_t)avail;
        ms_block_header bh = {.magic = MS_BLOCK_MAGIC, .kind = data[pos], .flags = 0,
                              .thread = data[pos + 1], .length = len};
        if (sizeof bh + len > MAX_FILE)
            break;
        memcpy(block, &bh, sizeof bh);
        memcpy(block + sizeof bh, data + pos + 6, len);
        pos += 6 + len;
        size_t z = ZSTD_compress2(cctx, file + out, MAX_FILE - out, block, sizeof bh + len);
        if (ZSTD_isError(z))
            break;
        out += z;
    }
    if (pos < size && size - pos < 6 && out + (size - pos) <= MAX_FILE) {
        memcpy(file + out, data + pos, size - pos);
        out += size - pos;
    }
    fuzz_read(file, out);
    return 0;
}
