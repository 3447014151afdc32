#include "LiveViewServer.h"

#include "LiveViewStore.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct LVS_Server {
    struct MHD_Daemon *daemon;
    LVS_Store store;
    char *page;
    size_t page_length;
    char *token; /* NULL: none asked for */
    int host_is_loopback;
    int port;
    LVS_TapCallback on_tap;
    void *tap_context;
};

static void say(char *message, size_t capacity, const char *format, ...) {
    if (message == NULL || capacity == 0) return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(message, capacity, format, arguments);
    va_end(arguments);
}

/* The monotonic clock `milliseconds` from now. */
static struct timespec deadline_after(int milliseconds) {
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += milliseconds / 1000;
    deadline.tv_nsec += (long)(milliseconds % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    return deadline;
}

/* ---- Requests ------------------------------------------------------------------------------------------------ */

/* Compares in time that depends on the lengths only, so that the token cannot be guessed a byte at a time. */
static int same_secret(const char *given, const char *expected) {
    size_t given_length = strlen(given), expected_length = strlen(expected);
    unsigned char difference = given_length != expected_length;
    for (size_t index = 0; index < given_length && index < expected_length; index++) {
        difference |= (unsigned char)(given[index] ^ expected[index]);
    }
    return difference == 0;
}

static int carries_token(struct MHD_Connection *connection, const char *token) {
    const char *given = MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, "token");
    if (given != NULL && same_secret(given, token)) return 1;
    const char *authorization = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Authorization");
    return authorization != NULL && strncasecmp(authorization, "Bearer ", 7) == 0 &&
           same_secret(authorization + 7, token);
}

/* Whether the Host header names this machine's loopback: localhost, 127.x.y.z or [::1], any port. */
static int names_loopback(const char *host) {
    if (host == NULL) return 0;
    char name[256];
    size_t length;
    if (host[0] == '[') {
        const char *end = strchr(host, ']');
        if (end == NULL) return 0;
        host++;
        length = (size_t)(end - host);
    } else {
        const char *colon = strchr(host, ':');
        length = colon != NULL ? (size_t)(colon - host) : strlen(host);
    }
    if (length == 0 || length >= sizeof name) return 0;
    memcpy(name, host, length);
    name[length] = '\0';
    if (strcasecmp(name, "localhost") == 0) return 1;
    struct in_addr v4;
    struct in6_addr v6;
    if (inet_pton(AF_INET, name, &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
    return inet_pton(AF_INET6, name, &v6) == 1 && IN6_IS_ADDR_LOOPBACK(&v6);
}

/* What every answer carries: nothing cached, nothing sniffed, no referrer, never framed. */
static void add_common_headers(struct MHD_Response *response, const char *type) {
    MHD_add_response_header(response, "Content-Type", type);
    MHD_add_response_header(response, "Cache-Control", "no-store");
    MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(response, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(response, "X-Frame-Options", "DENY");
}

static enum MHD_Result answer(struct MHD_Connection *connection, unsigned status, const char *type, const void *bytes,
                              size_t length, const char *frame) {
    struct MHD_Response *response = MHD_create_response_from_buffer(length, (void *)bytes, MHD_RESPMEM_MUST_COPY);
    if (response == NULL) return MHD_NO;
    add_common_headers(response, type);
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED) MHD_add_response_header(response, "Allow", "GET");
    if (frame != NULL) MHD_add_response_header(response, "X-Frame", frame);
    if (strncmp(type, "text/html", 9) == 0) {
        // The page's script is inline and draws every payload as text (textContent), never as markup; it may
        // load nothing from elsewhere.
        MHD_add_response_header(response, "Content-Security-Policy",
                                "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                                "img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'");
    }
    enum MHD_Result queued = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return queued;
}

static enum MHD_Result answer_text(struct MHD_Connection *connection, unsigned status, const char *text) {
    return answer(connection, status, "text/plain; charset=utf-8", text, strlen(text), NULL);
}

/* `slot` as it is now; with `names_frame`, the frame its bytes show in an X-Frame header. */
static enum MHD_Result answer_copy(struct MHD_Connection *connection, LVS_Store *store, const LVS_Bytes *slot,
                                   const char *type, const char *missing, int names_frame) {
    LVS_Bytes copy = lvs_store_copy(store, slot);
    if (copy.bytes == NULL) return answer_text(connection, MHD_HTTP_SERVICE_UNAVAILABLE, missing);
    char frame[24];
    snprintf(frame, sizeof frame, "%lld", (long long)copy.frame);
    enum MHD_Result queued = answer(connection, MHD_HTTP_OK, type, copy.bytes, copy.length, names_frame ? frame : NULL);
    free(copy.bytes);
    return queued;
}

static enum MHD_Result answer_events(struct MHD_Connection *connection, LVS_Server *server) {
    LVS_EventStream *stream = calloc(1, sizeof *stream);
    if (stream == NULL) return MHD_NO;
    stream->store = &server->store;
    // A viewer that reconnects (EventSource does by itself) goes on after the last line it had.
    const char *last = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Last-Event-ID");
    if (last != NULL && *last != '\0') {
        char *end = NULL;
        unsigned long long id = strtoull(last, &end, 10);
        if (end != NULL && *end == '\0') stream->next_line = (size_t)id + 1;
    }
    pthread_mutex_lock(&server->store.lock);
    server->store.open_streams++;  // lvs_event_stream_free counts it out
    pthread_mutex_unlock(&server->store.lock);
    struct MHD_Response *response =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 32 * 1024, lvs_event_stream_read, stream,
                                          lvs_event_stream_free);
    if (response == NULL) {
        lvs_event_stream_free(stream);
        return MHD_NO;
    }
    add_common_headers(response, "text/event-stream; charset=utf-8");
    enum MHD_Result queued = MHD_queue_response(connection, MHD_HTTP_OK, response);
    MHD_destroy_response(response);
    return queued;
}

static enum MHD_Result answer_picture(struct MHD_Connection *connection, LVS_Server *server) {
    LVS_Store *store = &server->store;
    pthread_mutex_lock(&store->lock);
    store->picture_requested = 1;
    pthread_cond_broadcast(&store->changed);
    pthread_mutex_unlock(&store->lock);
    return answer_copy(connection, store, &store->picture, "image/jpeg", "no picture yet\n", 1);
}

static enum MHD_Result answer_tap(struct MHD_Connection *connection, LVS_Server *server) {
    const char *id = MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, "id");
    if (id == NULL || *id == '\0') return answer_text(connection, MHD_HTTP_BAD_REQUEST, "give the item: /tap?id=ID\n");
    if (server->on_tap == NULL || !server->on_tap(server->tap_context, id)) {
        return answer_text(connection, MHD_HTTP_NOT_FOUND, "no such item in view\n");
    }
    return answer(connection, MHD_HTTP_NO_CONTENT, "text/plain; charset=utf-8", "", 0, NULL);
}

static enum MHD_Result handle(void *context, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size,
                              void **request_context) {
    (void)version;
    (void)upload_data;
    (void)upload_data_size;
    (void)request_context;
    LVS_Server *server = context;
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0) {
        return answer_text(connection, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET\n");
    }
    if (server->host_is_loopback && !names_loopback(MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Host"))) {
        return answer_text(connection, MHD_HTTP_FORBIDDEN, "this scan is served to loopback names only\n");
    }
    if (server->token != NULL && !carries_token(connection, server->token)) {
        return answer_text(connection, MHD_HTTP_UNAUTHORIZED, "give the token: ?token=TOKEN\n");
    }
    LVS_Store *store = &server->store;
    if (strcmp(url, "/") == 0) {
        return answer(connection, MHD_HTTP_OK, "text/html; charset=utf-8", server->page, server->page_length, NULL);
    }
    if (strcmp(url, "/events") == 0) return answer_events(connection, server);
    if (strcmp(url, "/items") == 0) {
        return answer_copy(connection, store, &store->items, "application/json", "no items yet\n", 0);
    }
    if (strcmp(url, "/frame.jpg") == 0) return answer_picture(connection, server);
    if (strcmp(url, "/tap") == 0) return answer_tap(connection, server);
    return answer_text(connection, MHD_HTTP_NOT_FOUND, "not found\n");
}

/* ---- The server ---------------------------------------------------------------------------------------------- */

/* A listening socket on host:port, its errno's words in `message` when it cannot be had. */
static int listen_on(const char *host, int port, char *message, size_t capacity) {
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    struct addrinfo hints = {0}, *addresses = NULL;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    int resolved = getaddrinfo(host, service, &hints, &addresses);
    if (resolved != 0) {
        say(message, capacity, "%s: %s", host, gai_strerror(resolved));
        return -1;
    }
    int fd = socket(addresses->ai_family, addresses->ai_socktype | SOCK_CLOEXEC, addresses->ai_protocol);
    int reuse = 1, v6only = 1;
    if (fd >= 0) {
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, sizeof reuse);
        if (addresses->ai_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof v6only);
    }
    if (fd < 0 || bind(fd, addresses->ai_addr, addresses->ai_addrlen) != 0 || listen(fd, 32) != 0) {
        int error = errno;
        say(message, capacity, "%s:%d: %s", host, port, strerror(error));
        if (fd >= 0) close(fd);
        fd = -1;
    }
    freeaddrinfo(addresses);
    return fd;
}

static int bound_port(int fd) {
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    if (getsockname(fd, (struct sockaddr *)&address, &length) != 0) return -1;
    if (address.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&address)->sin6_port);
    return ntohs(((struct sockaddr_in *)&address)->sin_port);
}

static void free_server(LVS_Server *server) {
    lvs_store_destroy(&server->store);
    free(server->page);
    free(server->token);
    free(server);
}

/* libmicrohttpd's own warnings would go to stderr, under the command's listing; the command reports failures. */
static void quiet_logger(void *context, const char *format, va_list arguments) {
    (void)context;
    (void)format;
    (void)arguments;
}

LVS_Status LVS_Server_start(const LVS_Options *options, LVS_Server **out_server, char *message,
                            size_t message_capacity) {
    if (out_server != NULL) *out_server = NULL;
    if (options == NULL || out_server == NULL || options->host == NULL || options->page == NULL || options->port < 0 ||
        options->port > 65535 || options->max_viewers < 1) {
        say(message, message_capacity, "invalid options");
        return LVS_INVALID_ARGUMENT;
    }
    LVS_Server *server = calloc(1, sizeof *server);
    if (server == NULL || lvs_store_init(&server->store) != 0) {
        free(server);
        say(message, message_capacity, "out of memory");
        return LVS_START_FAILED;
    }
    server->page = malloc(options->page_length + 1);
    server->token = options->token != NULL && *options->token != '\0' ? strdup(options->token) : NULL;
    if (server->page == NULL || (options->token != NULL && *options->token != '\0' && server->token == NULL)) {
        free_server(server);
        say(message, message_capacity, "out of memory");
        return LVS_START_FAILED;
    }
    memcpy(server->page, options->page, options->page_length);
    server->page_length = options->page_length;
    server->host_is_loopback = options->host_is_loopback;
    server->on_tap = options->on_tap;
    server->tap_context = options->tap_context;
    int fd = listen_on(options->host, options->port, message, message_capacity);
    if (fd < 0) {
        free_server(server);
        return LVS_ADDRESS_UNUSABLE;
    }
    server->port = bound_port(fd);
    // A thread per connection: an event stream blocks in its reader until there is a line, which only this
    // mode allows (the polling modes would spin).
    server->daemon = MHD_start_daemon(MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL, NULL,
                                      handle, server, MHD_OPTION_LISTEN_SOCKET, fd, MHD_OPTION_CONNECTION_LIMIT,
                                      (unsigned)options->max_viewers, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)120,
                                      MHD_OPTION_EXTERNAL_LOGGER, quiet_logger, NULL, MHD_OPTION_END);
    if (server->daemon == NULL) {
        close(fd);
        free_server(server);
        say(message, message_capacity, "%s:%d: libmicrohttpd did not start", options->host, options->port);
        return LVS_START_FAILED;
    }
    *out_server = server;
    return LVS_OK;
}

int LVS_Server_port(const LVS_Server *server) { return server != NULL ? server->port : -1; }

LVS_Status LVS_Server_add_log_line(LVS_Server *server, const char *line, size_t length) {
    if (server == NULL || (line == NULL && length > 0)) return LVS_INVALID_ARGUMENT;
    return lvs_store_add_line(&server->store, line != NULL ? line : "", length) == 0 ? LVS_OK : LVS_START_FAILED;
}

LVS_Status LVS_Server_set_items(LVS_Server *server, const char *json, size_t length) {
    if (server == NULL || json == NULL) return LVS_INVALID_ARGUMENT;
    return lvs_store_replace(&server->store, &server->store.items, json, length, -1) == 0 ? LVS_OK : LVS_START_FAILED;
}

LVS_Status LVS_Server_set_picture(LVS_Server *server, const uint8_t *jpeg, size_t length, int64_t frame) {
    if (server == NULL || jpeg == NULL) return LVS_INVALID_ARGUMENT;
    // The picture and its frame are swapped together: a viewer never gets one frame's picture named as another's.
    return lvs_store_replace(&server->store, &server->store.picture, jpeg, length, frame) == 0 ? LVS_OK
                                                                                               : LVS_START_FAILED;
}

int LVS_Server_wait_for_picture_request(LVS_Server *server, int timeout_ms) {
    if (server == NULL) return 0;
    LVS_Store *store = &server->store;
    const struct timespec deadline = deadline_after(timeout_ms);
    pthread_mutex_lock(&store->lock);
    while (!store->picture_requested && !store->stopping &&
           pthread_cond_timedwait(&store->changed, &store->lock, &deadline) != ETIMEDOUT) {
    }
    int requested = store->picture_requested;
    store->picture_requested = 0;
    pthread_mutex_unlock(&store->lock);
    return requested;
}

void LVS_Server_end_log(LVS_Server *server) {
    if (server == NULL) return;
    pthread_mutex_lock(&server->store.lock);
    server->store.log_ended = 1;
    pthread_cond_broadcast(&server->store.changed);
    pthread_mutex_unlock(&server->store.lock);
}

int LVS_Server_drain(LVS_Server *server, int timeout_ms) {
    if (server == NULL) return 1;
    LVS_Store *store = &server->store;
    const struct timespec deadline = deadline_after(timeout_ms);
    pthread_mutex_lock(&store->lock);
    while (store->open_streams > 0 && pthread_cond_timedwait(&store->changed, &store->lock, &deadline) != ETIMEDOUT) {
    }
    int drained = store->open_streams == 0;
    pthread_mutex_unlock(&store->lock);
    return drained;
}

void LVS_Server_stop(LVS_Server *server) {
    if (server == NULL) return;
    pthread_mutex_lock(&server->store.lock);
    server->store.stopping = 1;
    pthread_cond_broadcast(&server->store.changed);
    pthread_mutex_unlock(&server->store.lock);
    MHD_stop_daemon(server->daemon);  // closes the listening socket and joins the connection threads
    free_server(server);
}
