// Empty on purpose: this system library only carries `pkg-config tesseract` flags to CBridge.
