/* config/probe.sh: libotf2's headers and library (otf2-config's flags),
 * linked: mpiscope-merge --otf2 writes archives with it. */
#include <otf2/otf2.h>

int main(void)
{
    OTF2_Archive *a = OTF2_Archive_Open("/nonexistent", "probe", OTF2_FILEMODE_WRITE, 1024 * 1024,
                                        4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (a)
        OTF2_Archive_Close(a);
    return 0;
}
