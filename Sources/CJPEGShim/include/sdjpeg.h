#ifndef SDPORT_SDJPEG_H
#define SDPORT_SDJPEG_H
/* libjpeg calls made from C so that its longjmp-based error handling never crosses a Swift frame.
 * This header exposes no libjpeg types. */
int sdjpeg_lib_version(void);
#endif
