#!/usr/bin/env bash
# sanitize-core.sh — the engine, client, kube, diff and API-server tests, and the fuzz
# regression replays, built with the debug preset (ASan + UBSan, UB aborts) and run with leak
# detection on. CI runs this after the test suite; the whole suite under the sanitizers is
# `cmake --preset debug && cmake --build --preset debug && ctest --preset debug`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

tests=(tst_yaml tst_yamldocument tst_yamlfast tst_kubeobjects tst_linediff tst_jsonpatch tst_templatesummary
       tst_renderers tst_kubeconfig tst_execcredential tst_kubeclient tst_httpstransport
       tst_daemonsetlogic tst_store tst_cluster tst_engineproperty tst_upgradewrites tst_kubectldrain tst_apiserver
       tst_rolloutkind)
fuzz=(yaml gojson kube_objects kubeconfig watch_stream pod_list scenario patch line_diff
      template_summary serve_request)
targets=("${tests[@]}")
for f in "${fuzz[@]}"; do targets+=("fuzz_replay_$f"); done

cmake --preset debug >/dev/null
cmake --build --preset debug --target "${targets[@]}"
pattern="^($(IFS='|'; echo "${targets[*]}"))\$"
ctest --preset debug -j2 -R "$pattern"
