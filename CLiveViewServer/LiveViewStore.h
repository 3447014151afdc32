/* What the live view serves, as the scan last put it: the event log's lines, the items, the picture. One lock
 * guards it; viewers wait on its condition for lines and the scan for picture requests. */
#ifndef LIVESCAN_LIVEVIEWSTORE_H
#define LIVESCAN_LIVEVIEWSTORE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The log's lines kept for viewers that come later or read slowly, beyond its start line (always kept). A log
 * larger than this (days of a busy live scan) loses its oldest lines to new viewers, who are told how many. */
#define LVS_LOG_KEPT_BYTES ((size_t)64 << 20)

typedef struct LVS_Bytes {
    char *bytes;
    size_t length;
    int64_t frame; /* the frame the bytes show (a picture, the items), swapped and copied with them; -1 else */
} LVS_Bytes;

typedef struct LVS_Store {
    pthread_mutex_t lock;
    pthread_cond_t changed; /* broadcast on a new line, the log's end, a picture request and stopping */
    LVS_Bytes *lines;       /* lines[0] is the start line; lines[1..first_kept) were dropped (NULL) */
    size_t line_count, line_capacity, first_kept, kept_bytes;
    int log_ended, stopping;
    size_t open_streams; /* event streams being served, for LVS_Server_drain */
    LVS_Bytes items;
    LVS_Bytes picture;
    int picture_requested;
} LVS_Store;

int lvs_store_init(LVS_Store *store);
void lvs_store_destroy(LVS_Store *store);
/* Each returns 0, or -1 when memory ran out (the store is then unchanged). */
int lvs_store_add_line(LVS_Store *store, const char *line, size_t length);
int lvs_store_replace(LVS_Store *store, LVS_Bytes *slot, const void *bytes, size_t length, int64_t frame);
/* A copy of `slot` (its bytes and frame) taken under the lock, for a response; no bytes when it is empty or memory
 * ran out. */
LVS_Bytes lvs_store_copy(LVS_Store *store, const LVS_Bytes *slot);

/* One viewer's place in the log, for /events. */
typedef struct LVS_EventStream {
    LVS_Store *store;
    size_t next_line;
    char *pending; /* bytes made for the viewer and not yet sent */
    size_t pending_length, pending_sent;
} LVS_EventStream;

/* libmicrohttpd's content reader for an event stream: the next lines, as `id: N` / `data: LINE` events, waiting
 * for them (a comment every 15 s keeps the connection and tells a vanished viewer from a quiet scan); -1 (the end)
 * once the log has ended and every line was sent, or when the server stops. */
ssize_t lvs_event_stream_read(void *stream, uint64_t position, char *buffer, size_t capacity);
void lvs_event_stream_free(void *stream);

#endif
