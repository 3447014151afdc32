#include "LiveViewStore.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A viewer with nothing to read hears a comment this often: it keeps proxies from closing the stream, and a
 * viewer that went away is noticed when the write fails. */
#define LVS_KEEPALIVE_SECONDS 15
/* The most bytes of lines made ready for a viewer at once. */
#define LVS_BATCH_BYTES ((size_t)64 << 10)

int lvs_store_init(LVS_Store *store) {
    memset(store, 0, sizeof *store);
    pthread_condattr_t attributes;
    if (pthread_condattr_init(&attributes) != 0) return -1;
    // Waits time out on the monotonic clock: setting the wall clock must not stall or hurry them.
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    int failed = pthread_cond_init(&store->changed, &attributes) != 0;
    pthread_condattr_destroy(&attributes);
    if (failed) return -1;
    if (pthread_mutex_init(&store->lock, NULL) != 0) {
        pthread_cond_destroy(&store->changed);
        return -1;
    }
    return 0;
}

void lvs_store_destroy(LVS_Store *store) {
    for (size_t index = 0; index < store->line_count; index++) free(store->lines[index].bytes);
    free(store->lines);
    free(store->items.bytes);
    free(store->picture.bytes);
    pthread_cond_destroy(&store->changed);
    pthread_mutex_destroy(&store->lock);
}

/* Frees the oldest lines after the start line until what is kept fits LVS_LOG_KEPT_BYTES. Under the lock. */
static void drop_old_lines(LVS_Store *store) {
    while (store->kept_bytes > LVS_LOG_KEPT_BYTES && store->first_kept + 1 < store->line_count) {
        LVS_Bytes *line = &store->lines[store->first_kept];
        store->kept_bytes -= line->length;
        free(line->bytes);
        line->bytes = NULL;
        store->first_kept++;
    }
}

int lvs_store_add_line(LVS_Store *store, const char *line, size_t length) {
    char *copy = malloc(length + 1);
    if (copy == NULL) return -1;
    memcpy(copy, line, length);
    copy[length] = '\0';
    pthread_mutex_lock(&store->lock);
    if (store->line_count == store->line_capacity) {
        size_t capacity = store->line_capacity == 0 ? 256 : store->line_capacity * 2;
        LVS_Bytes *grown = realloc(store->lines, capacity * sizeof *grown);
        if (grown == NULL) {
            pthread_mutex_unlock(&store->lock);
            free(copy);
            return -1;
        }
        store->lines = grown;
        store->line_capacity = capacity;
    }
    store->lines[store->line_count++] = (LVS_Bytes){copy, length, -1};
    if (store->line_count == 1) {
        store->first_kept = 1;  // the start line is never dropped
    } else {
        store->kept_bytes += length;
        drop_old_lines(store);
    }
    pthread_cond_broadcast(&store->changed);
    pthread_mutex_unlock(&store->lock);
    return 0;
}

int lvs_store_replace(LVS_Store *store, LVS_Bytes *slot, const void *bytes, size_t length, int64_t frame) {
    char *copy = malloc(length > 0 ? length : 1);
    if (copy == NULL) return -1;
    memcpy(copy, bytes, length);
    pthread_mutex_lock(&store->lock);
    char *old = slot->bytes;
    *slot = (LVS_Bytes){copy, length, frame};
    pthread_mutex_unlock(&store->lock);
    free(old);
    return 0;
}

LVS_Bytes lvs_store_copy(LVS_Store *store, const LVS_Bytes *slot) {
    pthread_mutex_lock(&store->lock);
    LVS_Bytes copy = {NULL, 0, slot->frame};
    if (slot->bytes != NULL && (copy.bytes = malloc(slot->length > 0 ? slot->length : 1)) != NULL) {
        memcpy(copy.bytes, slot->bytes, slot->length);
        copy.length = slot->length;
    }
    pthread_mutex_unlock(&store->lock);
    return copy;
}

/* Appends `text` to the stream's pending bytes; -1 when memory ran out. */
static int append_pending(LVS_EventStream *stream, const char *text, size_t length) {
    char *grown = realloc(stream->pending, stream->pending_length + length);
    if (grown == NULL) return -1;
    memcpy(grown + stream->pending_length, text, length);
    stream->pending = grown;
    stream->pending_length += length;
    return 0;
}

/* Makes the stream's next lines pending, as many as LVS_BATCH_BYTES holds (at least one). Under the lock. */
static int take_lines(LVS_EventStream *stream) {
    LVS_Store *store = stream->store;
    if (stream->next_line > 0 && stream->next_line < store->first_kept) {
        char note[96];
        int length = snprintf(note, sizeof note, ": %zu lines of the log are no longer kept\n\n",
                              store->first_kept - stream->next_line);
        if (append_pending(stream, note, (size_t)length) != 0) return -1;
        stream->next_line = store->first_kept;
    }
    while (stream->next_line < store->line_count && stream->pending_length < LVS_BATCH_BYTES) {
        const LVS_Bytes *line = &store->lines[stream->next_line];
        char id[40];
        int length = snprintf(id, sizeof id, "id: %zu\ndata: ", stream->next_line);
        // Log lines are single-line JSON: `data:` never needs splitting.
        if (append_pending(stream, id, (size_t)length) != 0 || append_pending(stream, line->bytes, line->length) != 0 ||
            append_pending(stream, "\n\n", 2) != 0) {
            return -1;
        }
        stream->next_line++;
    }
    return 0;
}

ssize_t lvs_event_stream_read(void *context, uint64_t position, char *buffer, size_t capacity) {
    (void)position;
    LVS_EventStream *stream = context;
    if (stream->pending_sent == stream->pending_length) {
        stream->pending_length = stream->pending_sent = 0;
        LVS_Store *store = stream->store;
        pthread_mutex_lock(&store->lock);
        struct timespec deadline;
        clock_gettime(CLOCK_MONOTONIC, &deadline);
        deadline.tv_sec += LVS_KEEPALIVE_SECONDS;
        int timed_out = 0;
        while (!store->stopping && !store->log_ended && stream->next_line >= store->line_count && !timed_out) {
            timed_out = pthread_cond_timedwait(&store->changed, &store->lock, &deadline) == ETIMEDOUT;
        }
        int ended = store->stopping || (store->log_ended && stream->next_line >= store->line_count);
        int failed = 0;
        if (!ended) {
            failed = stream->next_line < store->line_count ? take_lines(stream) : append_pending(stream, ":\n\n", 3);
        }
        pthread_mutex_unlock(&store->lock);
        if (ended) return -1;   // MHD_CONTENT_READER_END_OF_STREAM
        if (failed) return -2;  // MHD_CONTENT_READER_END_WITH_ERROR
    }
    size_t count = stream->pending_length - stream->pending_sent;
    if (count > capacity) count = capacity;
    memcpy(buffer, stream->pending + stream->pending_sent, count);
    stream->pending_sent += count;
    return (ssize_t)count;
}

void lvs_event_stream_free(void *context) {
    LVS_EventStream *stream = context;
    LVS_Store *store = stream->store;
    pthread_mutex_lock(&store->lock);
    store->open_streams--;
    pthread_cond_broadcast(&store->changed);
    pthread_mutex_unlock(&store->lock);
    free(stream->pending);
    free(stream);
}
