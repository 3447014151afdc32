// Empty on purpose: this system library only carries `pkg-config livescan-zxing` flags (zxing-cpp 3.1.1, built
// by scripts/setup.sh) to CBridge and SceneRender.
