# LiveScan: `make demo` and `make test` are all a fresh Debian 12 machine needs.
SWIFT ?= swift
# `make install`: PREFIX/bin/livescan and PREFIX/share/livescan/models.
PREFIX ?= /usr/local
BUILD_DIR := .build
RELEASE_BIN := $(BUILD_DIR)/release
DEMO_DIR := $(BUILD_DIR)/demo
BENCH_DIR := $(BUILD_DIR)/bench

# Debian's Tesseract uses OpenMP, which reads this once at load: without it OCR is ~9x slower on 2 cores.
export OMP_THREAD_LIMIT := 1
# ONNX Runtime's library records usage events in the user's home for Microsoft's collector unless this is set when it
# starts: the tests run the library in their own process (README "Privacy").
export ORT_DISABLE_TELEMETRY := 1

.PHONY: setup build install test test-slurm test-browser test-sanitize fuzz format format-check demo bench bench-tracking \
	bench-engines bench-accuracy bench-dev bench-archive clean

setup:
	@bash scripts/setup.sh

build: setup
	$(SWIFT) build -c release

# The release binary and the learned models beside it in PREFIX/share/livescan/models, where it and the library
# find them (models/README.md); `make install PREFIX=~/.local` needs no root.
install: build
	@bash scripts/install.sh $(RELEASE_BIN) $(PREFIX)

test: setup
	$(SWIFT) test

# scripts/slurm/livescan-array.sh on a real Slurm: a throwaway one-node cluster (Debian's slurm-wlm and munge, own
# key, socket, ports and state in a temporary folder, all stopped at the end) runs a 2-task array over 3 short videos,
# whose logs must be a plain scan's, ids aside. Run as root (slurmd needs it); about 30 s after the build.
test-slurm: build
	@bash scripts/slurm/test-local-slurm.sh $(RELEASE_BIN)

# `livescan scan --serve` in headless Chromium (Debian's chromium, installed when missing): the picture updates, the
# list shows the scene's payloads, clicks choose items (page and log agree), markup shows as text. About 20 s.
test-browser: build
	@bash scripts/live-view/test-browser.sh $(RELEASE_BIN)

# AddressSanitizer over CBridge, the library and the tests that drive the real engines, and
# UndefinedBehaviorSanitizer over the C++ (CBridge, SceneRender; swiftc has no UBSan on Linux; its handlers
# come with the ASan runtime). Leak checking is off: OpenCV, Tesseract and libgomp keep process-lifetime
# allocations that it reports. UBSan's vptr check names the type info of cv::VideoCapture and cv::VideoWriter, so
# this build links the two OpenCV modules CBridge otherwise loads on demand.
SANITIZE_FLAGS := --sanitize=address -Xcxx -fsanitize=undefined -Xcxx -fno-sanitize-recover=undefined \
	-Xlinker -lopencv_videoio -Xlinker -lopencv_imgcodecs \
	--scratch-path $(BUILD_DIR)/sanitize
# Then ThreadSanitizer over the same tests: the scanner's threads (capture, read-ahead, engines side by side).
test-sanitize: setup
	ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 $(SWIFT) test $(SANITIZE_FLAGS) \
		--filter "LiveScanCoreTests|LiveScanTests|BridgeTests"
	TSAN_OPTIONS=halt_on_error=1 $(SWIFT) test --sanitize=thread --scratch-path $(BUILD_DIR)/tsan \
		--filter "LiveScanCoreTests|LiveScanTests|BridgeTests"

# libFuzzer (Debian clang 14 + ASan/UBSan; swiftc -sanitize=fuzzer for the event log) over CBridge's image
# and frame entry points and the event-log reader: saved crash inputs first, then 60 s per target.
fuzz: setup
	@bash scripts/fuzz.sh 60

# clang-format over CBridge/, SceneRender/ and Fuzz/ with .clang-format (format-check changes nothing and fails
# naming the files that differ). A developer tool, so not part of setup: scripts/format.sh installs Debian's
# clang-format when it is missing, as fuzz.sh installs clang.
format:
	@bash scripts/format.sh

format-check:
	@bash scripts/format.sh --check

demo: build
	@mkdir -p $(DEMO_DIR)
	$(RELEASE_BIN)/livescan-scenes video demo $(DEMO_DIR)/demo.mp4 --truth $(DEMO_DIR)/demo.truth.json
	$(RELEASE_BIN)/livescan scan $(DEMO_DIR)/demo.mp4 --events $(DEMO_DIR)/demo.events.jsonl
	@echo "event log: $(DEMO_DIR)/demo.events.jsonl"

bench: build
	@bash scripts/bench.sh $(RELEASE_BIN) $(BENCH_DIR)/realtime

bench-tracking: build
	@bash scripts/bench-tracking.sh $(RELEASE_BIN) $(BENCH_DIR)

bench-accuracy: build
	@bash scripts/bench-accuracy.sh $(RELEASE_BIN) $(BENCH_DIR)/accuracy

bench-dev: build
	@bash scripts/bench-dev.sh $(RELEASE_BIN) $(BENCH_DIR)/dev

bench-engines: build
	$(RELEASE_BIN)/livescan-bench-engines 20

# An archive scan of 20 one-minute videos at --jobs 1, --jobs 2 and as a 2-task Slurm array on a throwaway local
# cluster (as root, like test-slurm): wall, CPU, files a minute, logs the same ids aside. 41 min on 2 cores.
bench-archive: build
	@bash scripts/slurm/bench-archive.sh $(RELEASE_BIN) $(BENCH_DIR)/archive

clean:
	rm -rf $(BUILD_DIR)
