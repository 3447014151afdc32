// libpng and libjpeg write to stderr themselves when OpenCV's imgcodecs decodes a damaged file ("libpng error:
// Read Error", "Corrupt JPEG data: premature end of data segment"): imgcodecs creates their decoders with the
// default handlers (libpng's png_default_error/warning, libjpeg's jpeg_std_error output_message), which print,
// and offers no way to pass others. LiveScan says what is wrong with such a file in its own one line.
//
// The one place to reach those decoders is imgcodecs' own table of the two creating functions (its GOT entries for
// png_create_read_struct and jpeg_std_error): pointed at the wrappers below, every decoder imgcodecs creates from
// then on (imdecode, and the imread of an image sequence) gets handlers that print nothing and otherwise do what
// the defaults do. That changes how the process's OpenCV behaves, so it happens only through
// CB_silence_library_logs, which the `livescan` command calls and the library never does; decoding is unchanged.
#include "QuietCodecs.hpp"
#include "OpenCVOnDemand.hpp"

#include <png.h>

#include <cstdio>
#include <jpeglib.h>

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>

namespace {

using CreatePNGReader = decltype(&png_create_read_struct);
using PNGLongJump = decltype(&png_longjmp);
using JPEGStandardError = decltype(&jpeg_std_error);

// The real functions, found through imgcodecs' own dependencies (dlsym on its handle): CBridge itself links
// neither library. Written once, under `patching`, before any slot points at a wrapper.
CreatePNGReader realCreatePNGReader = nullptr;
PNGLongJump realPNGLongJump = nullptr;
JPEGStandardError realJPEGStandardError = nullptr;

std::atomic<bool> silenced{false};
std::mutex patching;

[[noreturn]] void quietPNGError(png_structp png, png_const_charp) {
    // What png_default_error does after printing: back to the decoder's setjmp, which fails the decode.
    realPNGLongJump(png, 1);
    std::abort();  // png_longjmp does not return; were there no jump buffer, libpng itself aborts
}

void quietPNGWarning(png_structp, png_const_charp) {}

png_structp quietCreatePNGReader(png_const_charp version, png_voidp errorPointer, png_error_ptr errorFunction,
                                 png_error_ptr warningFunction) {
    return realCreatePNGReader(version, errorPointer, errorFunction != nullptr ? errorFunction : quietPNGError,
                               warningFunction != nullptr ? warningFunction : quietPNGWarning);
}

void quietJPEGOutput(j_common_ptr) {}

struct jpeg_error_mgr *quietJPEGStandardError(struct jpeg_error_mgr *manager) {
    struct jpeg_error_mgr *result = realJPEGStandardError(manager);
    // Warnings ("Corrupt JPEG data: ...") and error texts reach stderr only through output_message; error_exit,
    // which OpenCV replaces with its own longjmp, calls it before exiting, so nothing else prints.
    result->output_message = quietJPEGOutput;
    return result;
}

struct Slot {
    const char *symbol;
    void *replacement;
};

/// Where a loaded object's dynamic section is, and its RELRO range (read-only once loaded, as with -z now).
struct ObjectSegments {
    const ElfW(Dyn) *dynamic = nullptr;
    uintptr_t relroStart = 0;
    uintptr_t relroEnd = 0;
};

ObjectSegments segmentsOf(const dl_phdr_info &object) {
    ObjectSegments segments;
    for (int index = 0; index < object.dlpi_phnum; ++index) {
        const ElfW(Phdr) &header = object.dlpi_phdr[index];
        if (header.p_type == PT_DYNAMIC) {
            segments.dynamic = reinterpret_cast<const ElfW(Dyn) *>(object.dlpi_addr + header.p_vaddr);
        } else if (header.p_type == PT_GNU_RELRO) {
            segments.relroStart = object.dlpi_addr + header.p_vaddr;
            segments.relroEnd = segments.relroStart + header.p_memsz;
        }
    }
    return segments;
}

/// A loaded object's symbol names and its two relocation tables (the PLT's and the others), as its dynamic section
/// gives them.
struct RelocationTables {
    const char *strings = nullptr;
    const ElfW(Sym) *symbols = nullptr;
    const ElfW(Rela) * tables[2] = {nullptr, nullptr};
    size_t sizes[2] = {0, 0};
};

RelocationTables tablesOf(const dl_phdr_info &object, const ElfW(Dyn) * dynamic) {
    // glibc's loader relocates these addresses in place; an unrelocated (smaller than the base) one is an offset.
    auto address = [&](ElfW(Addr) value) { return value < object.dlpi_addr ? value + object.dlpi_addr : value; };
    RelocationTables found;
    for (const ElfW(Dyn) *entry = dynamic; entry->d_tag != DT_NULL; ++entry) {
        switch (entry->d_tag) {
        case DT_STRTAB: found.strings = reinterpret_cast<const char *>(address(entry->d_un.d_ptr)); break;
        case DT_SYMTAB: found.symbols = reinterpret_cast<const ElfW(Sym) *>(address(entry->d_un.d_ptr)); break;
        case DT_JMPREL: found.tables[0] = reinterpret_cast<const ElfW(Rela) *>(address(entry->d_un.d_ptr)); break;
        case DT_PLTRELSZ: found.sizes[0] = entry->d_un.d_val; break;
        case DT_RELA: found.tables[1] = reinterpret_cast<const ElfW(Rela) *>(address(entry->d_un.d_ptr)); break;
        case DT_RELASZ: found.sizes[1] = entry->d_un.d_val; break;
        default: break;
        }
    }
    return found;
}

/// Whether `relocation` fills a slot with a function's or a datum's address (a jump slot or a global): the only
/// kinds patched.
bool isAddressSlot(const ElfW(Rela) & relocation) {
#if defined(__x86_64__)
    const auto type = ELF64_R_TYPE(relocation.r_info);
    return type == R_X86_64_JUMP_SLOT || type == R_X86_64_GLOB_DAT;
#elif defined(__aarch64__)
    const auto type = ELF64_R_TYPE(relocation.r_info);
    return type == R_AARCH64_JUMP_SLOT || type == R_AARCH64_GLOB_DAT;
#else
    (void)relocation;
    return false;  // no other architecture is built; leave the libraries' lines rather than guess a layout
#endif
}

/// Writes `replacement` into the slot `target`; one under RELRO is made writable for the write and read-only again
/// (left as it is when that is refused).
void storeInSlot(void **target, void *replacement, const ObjectSegments &segments) {
    const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    const uintptr_t at = reinterpret_cast<uintptr_t>(target);
    const bool readOnly = at >= segments.relroStart && at < segments.relroEnd;
    void *pageStart = reinterpret_cast<void *>(at & ~(page - 1));
    if (readOnly && ::mprotect(pageStart, page, PROT_READ | PROT_WRITE) != 0) {
        return;
    }
    __atomic_store_n(target, replacement, __ATOMIC_RELEASE);
    if (readOnly) {
        ::mprotect(pageStart, page, PROT_READ);
    }
}

/// Points every relocation slot of the loaded object `object` whose symbol is one of `slots` at its replacement.
void patchObject(const dl_phdr_info &object, const Slot *slots, size_t slotCount) {
    const ObjectSegments segments = segmentsOf(object);
    if (segments.dynamic == nullptr) {
        return;
    }
    const RelocationTables found = tablesOf(object, segments.dynamic);
    if (found.strings == nullptr || found.symbols == nullptr) {
        return;
    }
    for (int table = 0; table < 2; ++table) {
        for (size_t index = 0; found.tables[table] != nullptr && index < found.sizes[table] / sizeof(ElfW(Rela));
             ++index) {
            const ElfW(Rela) &relocation = found.tables[table][index];
            if (!isAddressSlot(relocation)) {
                continue;
            }
            const char *name = found.strings + found.symbols[ELF64_R_SYM(relocation.r_info)].st_name;
            for (size_t slot = 0; slot < slotCount; ++slot) {
                if (std::strcmp(name, slots[slot].symbol) == 0) {
                    storeInSlot(reinterpret_cast<void **>(object.dlpi_addr + relocation.r_offset),
                                slots[slot].replacement, segments);
                }
            }
        }
    }
}

/// Patches imgcodecs when it is loaded (by CBridge's on-demand loader, or with videoio, which links it).
bool isImageCodecs(const dl_phdr_info &object) {
    const char *path = object.dlpi_name != nullptr ? object.dlpi_name : "";
    const char *slash = std::strrchr(path, '/');
    return std::strcmp(slash != nullptr ? slash + 1 : path, cbridge::moduleLibrary("imgcodecs").c_str()) == 0;
}

void patchLoadedImageCodecs() {
    // Looked for among the loaded objects first: even with RTLD_NOLOAD, dlopen searches the library path for a
    // library that is not loaded (LD_DEBUG=files then reports it as loaded).
    const bool loaded =
        ::dl_iterate_phdr([](dl_phdr_info *object, size_t, void *) { return isImageCodecs(*object) ? 1 : 0; },
                          nullptr) != 0;
    void *imageCodecs =
        loaded ? ::dlopen(cbridge::moduleLibrary("imgcodecs").c_str(), RTLD_NOW | RTLD_NOLOAD) : nullptr;
    if (imageCodecs == nullptr) {
        return;  // not loaded yet: the on-demand loader calls again when it loads it
    }
    if (realCreatePNGReader == nullptr) {
        realCreatePNGReader = reinterpret_cast<CreatePNGReader>(::dlsym(imageCodecs, "png_create_read_struct"));
        realPNGLongJump = reinterpret_cast<PNGLongJump>(::dlsym(imageCodecs, "png_longjmp"));
        realJPEGStandardError = reinterpret_cast<JPEGStandardError>(::dlsym(imageCodecs, "jpeg_std_error"));
    }
    Slot slots[2];
    size_t count = 0;
    if (realCreatePNGReader != nullptr && realPNGLongJump != nullptr) {
        slots[count++] = {"png_create_read_struct", reinterpret_cast<void *>(&quietCreatePNGReader)};
    }
    if (realJPEGStandardError != nullptr) {
        slots[count++] = {"jpeg_std_error", reinterpret_cast<void *>(&quietJPEGStandardError)};
    }
    struct Search {
        const Slot *slots;
        size_t count;
    } search{slots, count};
    ::dl_iterate_phdr(
        [](dl_phdr_info *object, size_t, void *data) {
            const auto *search = static_cast<const Search *>(data);
            if (isImageCodecs(*object)) {
                patchObject(*object, search->slots, search->count);
                return 1;
            }
            return 0;
        },
        &search);
    ::dlclose(imageCodecs);  // balances the RTLD_NOLOAD open; the library stays loaded
}

}  // namespace

namespace cbridge {

void silenceImageCodecs() {
    std::lock_guard<std::mutex> lock(patching);
    silenced = true;
    patchLoadedImageCodecs();
}

void imageCodecsMayHaveLoaded() {
    if (!silenced) {
        return;
    }
    std::lock_guard<std::mutex> lock(patching);
    patchLoadedImageCodecs();
}

}  // namespace cbridge
