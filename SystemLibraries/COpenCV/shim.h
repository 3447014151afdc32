// Empty on purpose: this system library only carries `pkg-config livescan-opencv` flags (OpenCV 4's include
// folder, written by scripts/setup.sh) to CBridge and SceneRender, so that Package.swift needs no unsafe flag.
