/* CBridge: items drawn over a frame. Ownership, errors and threads: CBridge.h. */
#ifndef LIVESCAN_CBANNOTATE_H
#define LIVESCAN_CBANNOTATE_H

#include "CBImage.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Annotation: items drawn over a frame (cv::polylines, cv::putText) ---------------------- */

/** What an annotation marks; it picks the colour (BGR): barcodes green, text orange. */
typedef enum CB_AnnotationKind {
    CB_ANNOTATION_BARCODE = 0,
    CB_ANNOTATION_TEXT = 1,
    CB_ANNOTATION_REGION = 2 /* the region of interest: outlined at its corners, not around them */
} CB_AnnotationKind;

typedef struct CB_Annotation {
    CB_Quad quad;      /* the item's corners in the image's pixels */
    int kind;          /* one CB_AnnotationKind */
    const char *label; /* UTF-8, borrowed for the call; NULL draws no label. Untrusted: Hershey fonts draw
                          ASCII only, so control and non-ASCII characters become '?'; cut to 40 characters. */
} CB_Annotation;

/**
 * Draws `count` annotations on a new copy of `image`; `image` itself is never changed, since frames are
 * shared between threads. Each quad is outlined a few pixels outside its corners (barcodes: around the quad
 * enlarged by 8% a side, clear of the quiet zone), so the symbol stays readable in the output; line width
 * and font grow with the image. Each label sits in a filled box just above or below its outline, wherever
 * it covers least of the other items and labels, always inside the image. Free the copy with
 * CB_Image_delete. CB_INVALID_ARGUMENT for an unknown kind or a corner that is not a finite number.
 */
CB_Status CB_Image_copy_annotated(const CB_Image *image, const CB_Annotation *annotations, size_t count,
                                  CB_Image **out_image);

#ifdef __cplusplus
}
#endif

#endif
