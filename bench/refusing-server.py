#!/usr/bin/env python3
"""A server that lists one model and refuses every request, standard library only: a run against
it ends right after its test request (llmload stops at a 401 there), so a profile of that run is a
profile of llmload's start-up up to its first request, and nothing after it
(docs/performance.md, "The tokenizer and Jackson's object mapper behind the first request").

    bench/refusing-server.py PORT      # listens on 127.0.0.1:PORT until killed

GET /v1/models answers one model, "m"; any other GET is a 404; every POST is a 401.
"""
import http.server
import json
import sys


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path.split("?")[0] == "/v1/models":
            self.answer(200, {"object": "list", "data": [{"id": "m", "object": "model"}]})
        else:
            self.answer(404, {"error": {"message": "not found"}})

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.answer(401, {"error": {"message": "refused"}})


if __name__ == "__main__":
    http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
