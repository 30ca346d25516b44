"""A hostile OpenAI-compatible server for llmload's tests, on the Python standard library only.

python3 hostile-server.py MODE: listens on 127.0.0.1 (a free port, printed as the first line of
standard output) and answers POST requests as MODE says; GET /count answers how many POSTs came.
GET /v1/models lists one model; every other GET (/metrics among them) is a 404.
"""
import gzip
import http.server
import json
import socketserver
import sys
import threading
import time

MODE = sys.argv[1]
POSTS = [0]
LOCK = threading.Lock()
TOKEN = b'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n'
# U+2028, U+2029, zero-width space and joiner, a right-to-left override, a right-to-left mark, an escape.
HOSTILE = "a\u2028b\u2029c\u200bd\u200de\u202ef\u200fg\u001b[31mh"


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_body(self, status, body, content_type="application/json", headers=None):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/count":
            with LOCK:
                self.send_body(200, str(POSTS[0]).encode(), "text/plain")
        elif self.path.startswith("/v1/models"):
            model = "m" + HOSTILE if MODE == "unicode" else "m"
            self.send_body(200, json.dumps({"data": [{"id": model, "owned_by": "x"}]}).encode())
        else:
            self.send_body(404, b'{"error":"not found"}')

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with LOCK:
            POSTS[0] += 1
        if MODE == "unicode":
            self.send_body(500, json.dumps({"error": {"message": "e" + HOSTILE}}).encode())
        elif MODE == "gzip":
            body = gzip.compress(json.dumps({"choices": [{"index": 0, "message": {"content": "hi"}}]}).encode())
            self.send_body(200, body, headers={"Content-Encoding": "gzip"})
        elif MODE == "redirect":
            self.send_body(302, b"", "text/plain", {"Location": "http://127.0.0.1:9/elsewhere"})
        elif MODE == "silent":
            time.sleep(3600)
        elif MODE in ("endless-sse", "endless-body"):
            # Tokens as fast as the socket takes them, without end; as a plain body, no framing at all.
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream" if MODE == "endless-sse" else "text/plain")
            self.end_headers()
            chunk = TOKEN * 256
            try:
                while True:
                    self.wfile.write(chunk)
            except OSError:
                pass
            self.close_connection = True
        elif MODE == "slow":
            # A valid stream of 8 tokens, 50 ms apart.
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for _ in range(8):
                time.sleep(0.05)
                self.chunk(TOKEN)
            self.chunk(b"data: [DONE]\n\n")
            self.wfile.write(b"0\r\n\r\n")
        else:
            self.send_body(400, b'{"error":{"message":"unknown mode"}}')

    def chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


if MODE == "backlog":
    # A port that never completes a connection: a listening socket that accepts nothing, its queue
    # filled by connections of its own, so the kernel drops every further SYN and a connect hangs.
    import socket
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    fillers = []
    for _ in range(4):
        filler = socket.socket()
        filler.setblocking(False)
        filler.connect_ex(listener.getsockname())
        fillers.append(filler)
    print(listener.getsockname()[1], flush=True)
    time.sleep(3600)
else:
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
