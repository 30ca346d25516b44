#!/usr/bin/env bash
# llmload merge at scale (docs/performance.md "Big runs"): for each segment count in SEGMENTS
# (1 10 100), writes a run of REQUESTS requests (1,000,000 in total) split into that many segment
# directories, then times `llmload merge` of them under a heap limit of HEAP (1g).
#
#   bench/merge-scale.sh
#   REQUESTS=100000 SEGMENTS="1 10" HEAP=4g bench/merge-scale.sh
#
# Environment: REQUESTS (1000000), SEGMENTS ("1 10 100"), HEAP (1g), WORK (a temp dir).
set -uo pipefail
REQUESTS=${REQUESTS:-1000000} SEGMENTS=${SEGMENTS:-1 10 100} HEAP=${HEAP:-1g}
. "$(dirname "${BASH_SOURCE[0]}")/big-journals.sh"
for n in $SEGMENTS; do
  rm -rf "$WORK/merge-$n" "$WORK/merged-$n"
  big_journals "$WORK/merge-$n" "$REQUESTS" "$n" || exit 1
  echo "merge of $n segments ($REQUESTS requests), -Xmx$HEAP: $(timed_llmload merge "$WORK/merged-$n" "$WORK/merge-$n"/seg-*)"
  rm -rf "$WORK/merge-$n" "$WORK/merged-$n"
done
