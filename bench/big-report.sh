#!/usr/bin/env bash
# llmload report of a big journal (docs/performance.md "Big runs"): writes a run of REQUESTS
# requests (1,000,000) at 1,000 per second, 64–192 output tokens each, then times
# `llmload report` on it under a heap limit of HEAP (1g) and prints the size of report.html.
#
#   bench/big-report.sh
#   REQUESTS=100000 HEAP=4g bench/big-report.sh
#
# Environment: REQUESTS (1000000), HEAP (1g), WORK (a temp dir; keeps the template run).
set -uo pipefail
REQUESTS=${REQUESTS:-1000000} HEAP=${HEAP:-1g}
. "$(dirname "${BASH_SOURCE[0]}")/big-journals.sh"
rm -rf "$WORK/report" && big_journals "$WORK/report" "$REQUESTS" 1 || exit 1
dir="$WORK/report/seg-000"
echo "journal: $REQUESTS requests, $(du -m "$dir/requests.jsonl" | cut -f1) MB"
echo "llmload report, -Xmx$HEAP: $(timed_llmload report "$dir")"
echo "report.html: $(du -k "$dir/report.html" | cut -f1) KiB"
