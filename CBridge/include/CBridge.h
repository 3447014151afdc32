/*
 * CBridge: LiveScan's one C boundary over OpenCV, zxing-cpp and Tesseract.
 *
 * Ownership, stated once:
 *  - A handle (an opaque `CB_X *`) returned through an out-parameter, by `CB_X_new`/`CB_X_open` or any
 *    other call (`CB_Capture_read`'s image), is released with `CB_X_delete` (NULL is allowed).
 *  - An array returned through an out-parameter (`CB_Barcode *`, `CB_TextLine *`, `CB_Quad *`) is
 *    released with the `_free` function declared beside the call that made it; strings and byte
 *    buffers inside it belong to the array.
 *  - Anything `const` is borrowed and valid until the next call on the same handle.
 * Nothing else CBridge returns is the caller's to free.
 *
 * Errors: every call returns a `CB_Status`. On failure a human-readable message is left for
 * `CB_last_error()`, which is thread-local. No C++ exception ever crosses this header.
 *
 * Threads: a handle is used by one thread at a time; different handles may be used concurrently. The one exception,
 * a CB_Cancellation, is asked for from another thread than the call that uses it (CBStatus.h).
 */
#ifndef LIVESCAN_CBRIDGE_H
#define LIVESCAN_CBRIDGE_H

#include "CBStatus.h"
#include "CBImage.h"
#include "CBCapture.h"
#include "CBBarcode.h"
#include "CBText.h"
#include "CBAnnotate.h"
#include "CBVideoWriter.h"

#endif
