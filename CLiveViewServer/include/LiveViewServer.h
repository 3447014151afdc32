/* CLiveViewServer: the HTTP side of `livescan scan --serve`, over libmicrohttpd (Debian's libmicrohttpd-dev).
 *
 * The server is a store that viewers read: the scan puts in what it has (the page, the event log's lines, the
 * current items as JSON, the latest picture as JPEG) and never waits for a viewer. Each connection has a thread of
 * its own (libmicrohttpd's thread-per-connection mode), which blocks only on the store's lock and on its own socket:
 * a slow or vanished viewer slows only itself. Every viewer of /events gets the whole log from its start line, so
 * none misses a line however late it comes or however slow it reads.
 *
 * Paths, all GET (any other method: 405): / the page, /events the log as Server-Sent Events, /items the current
 * items, /frame.jpg the latest picture, /tap?id=ID the viewer's choice of an item (the callback decides whether it
 * names one: 204, else 404). Anything else: 404. With a token, every request must carry it (`?token=` or
 * `Authorization: Bearer`): 401 else. On a loopback address a request must name a loopback host (Host:
 * 127.0.0.1, [::1] or localhost): 403 else, so that a web page elsewhere cannot reach the scan through a name
 * that it points at 127.0.0.1 (DNS rebinding).
 *
 * Ownership: LVS_Server_start allocates the server; LVS_Server_stop stops it and frees it. Every buffer passed in
 * is copied before the call returns. Errors: each call that can fail returns an LVS_Status and writes a one-line
 * reason into the caller's `message` buffer. No signal handler is installed (libmicrohttpd sends with
 * MSG_NOSIGNAL). Threads: every call is safe from any thread; the tap callback runs on a connection's thread.
 */
#ifndef LIVESCAN_LIVEVIEWSERVER_H
#define LIVESCAN_LIVEVIEWSERVER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum LVS_Status {
    LVS_OK = 0,
    LVS_INVALID_ARGUMENT = 1,
    LVS_ADDRESS_UNUSABLE = 2, /* the host does not resolve, or the address cannot be bound (in use, not ours) */
    LVS_START_FAILED = 3,     /* libmicrohttpd would not start, or memory ran out */
} LVS_Status;

/** A viewer chose the item `id` (the request's `id`, NUL-terminated, untrusted). Returns 1 when it names a current
 * item (and the choice was taken), 0 else. Called on the viewer's connection thread. */
typedef int (*LVS_TapCallback)(void *context, const char *id);

typedef struct LVS_Options {
    const char *host;     /* a numeric address or a name; resolved with getaddrinfo, the first address bound */
    int port;             /* 0: any free port (LVS_Server_port tells which) */
    const char *token;    /* NULL or "": no token asked for */
    int host_is_loopback; /* 1: requests must name a loopback host (above) */
    const char *page;     /* the page served at /, UTF-8 HTML; copied */
    size_t page_length;
    LVS_TapCallback on_tap; /* may be NULL: /tap then answers 404 */
    void *tap_context;
    int max_viewers; /* connections at once; further ones are refused */
} LVS_Options;

typedef struct LVS_Server LVS_Server;

/** Binds `options->host`:`options->port` and starts serving. On failure `*out_server` is NULL and `message` says
 * why (e.g. "127.0.0.1:8080: Address already in use"). */
LVS_Status LVS_Server_start(const LVS_Options *options, LVS_Server **out_server, char *message,
                            size_t message_capacity);

/** The port bound (the one chosen when 0 was asked for). */
int LVS_Server_port(const LVS_Server *server);

/** Appends one event-log line (without its newline) to what /events serves. */
LVS_Status LVS_Server_add_log_line(LVS_Server *server, const char *line, size_t length);

/** Replaces what /items serves (a JSON document). */
LVS_Status LVS_Server_set_items(LVS_Server *server, const char *json, size_t length);

/** Replaces what /frame.jpg serves; `frame` is the frame's index, sent as the X-Frame header. */
LVS_Status LVS_Server_set_picture(LVS_Server *server, const uint8_t *jpeg, size_t length, int64_t frame);

/** Waits up to `timeout_ms` for a viewer to ask for a picture newer than the last one set; 1 when one has, else 0.
 * The scan encodes pictures only when someone looks. */
int LVS_Server_wait_for_picture_request(LVS_Server *server, int timeout_ms);

/** The log is complete: each /events stream ends once its viewer has every line. */
void LVS_Server_end_log(LVS_Server *server);

/** Waits up to `timeout_ms` for every viewer of /events to have the whole log (call LVS_Server_end_log first):
 * 1 when all have, 0 when one is still behind (a stalled viewer is not waited for longer). */
int LVS_Server_drain(LVS_Server *server, int timeout_ms);

/** Stops serving (open connections are closed), waits for the connection threads and frees the server. NULL is
 * ignored. */
void LVS_Server_stop(LVS_Server *server);

#ifdef __cplusplus
}
#endif

#endif
