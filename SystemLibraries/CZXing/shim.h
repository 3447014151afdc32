// Empty on purpose: this system library only carries `pkg-config zxing` flags to CBridge.
