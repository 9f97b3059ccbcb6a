#include "sdjpeg.h"
#include <stdio.h>
#include <jpeglib.h>

int sdjpeg_lib_version(void) { return JPEG_LIB_VERSION; }
