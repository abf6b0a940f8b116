# The include rules' own test: cmake/IncludeRules.cmake passes on the source tree, and on a small
# tree of its own it refuses exactly the includes a layer must not see and names each line.
#   cmake -DROOT=<source dir> -DWORK=<scratch dir> -P tests/includerules.cmake
if(NOT ROOT OR NOT WORK)
  message(FATAL_ERROR "includerules test: ROOT and WORK must be set")
endif()
set(checker ${ROOT}/cmake/IncludeRules.cmake)

execute_process(COMMAND ${CMAKE_COMMAND} -DROOT=${ROOT} -P ${checker} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the source tree breaks the include rules:\n${err}")
endif()

file(REMOVE_RECURSE ${WORK})
function(source path)
  set(text "")
  foreach(header ${ARGN})
    string(APPEND text "#include \"${header}\"\n")
  endforeach()
  file(WRITE ${WORK}/${path} "${text}")
endfunction()
# Allowed: a controller sees api and kube; the store sees api and kube; the simulation sees the
# store and the controllers; the scenarios see the simulation; the embedded backend sees the
# simulation, the scenarios and the bridge's rooms; a widget sees the rooms and the embedded
# backend; a system header is not checked.
source(models/controllers/fine.cpp models/api/kind.h models/kube/pod.h models/controllers/upgradecluster.h)
source(models/store/fine.cpp models/api/validation.h models/kube/pod.h models/store/store.h)
source(models/sim/fine.cpp models/store/store.h models/controllers/daemonsetcontroller.h models/sim/kubelet.h)
source(models/scenario/fine.cpp models/sim/cluster.h models/api/kind.h models/scenario/scenario.h)
source(models/embedded/fine.cpp models/sim/cluster.h models/scenario/scenariorunner.h
       models/snapshot/snapshot.h)
source(ui/finewidget.cpp models/itemmodels/nodemapmodel.h models/embedded/embeddedbackend.h ui/theme.h)
file(APPEND ${WORK}/ui/finewidget.cpp "#include <QWidget>\n")
# Refused: each of these lines must be named.
source(models/controllers/bad.cpp models/api/kind.h models/sim/clusterimpl.h)
source(models/backend/livebad.cpp models/client/kubeclient.h models/sim/cluster.h)
source(models/snapshot/bad.cpp models/snapshot/snapshot.h models/sim/cluster.h)
source(models/planners/bad.cpp models/embedded/snapshotbuilder.h)
source(models/liveupgrade/bad.cpp models/server/apiserver.h)
source(models/kube/bad.h models/api/kind.h)
source(models/sim/bad.cpp models/client/kubeclient.h)
source(models/store/bad.cpp models/store/store.h models/sim/kubelet.h)
source(models/store/badcontroller.cpp models/controllers/daemonsetcontroller.h)
source(models/controllers/badstore.cpp models/store/store.h)
source(models/sim/badscenario.h models/scenario/scenario.h)
source(models/backend/livebadscenario.cpp models/scenario/scenarioparser.h)
source(ui/badwidget.cpp models/controllers/nodeupgradecontroller.h)

execute_process(COMMAND ${CMAKE_COMMAND} -DROOT=${WORK} -P ${checker} RESULT_VARIABLE rc ERROR_VARIABLE err)
string(REGEX REPLACE "[ \n]+" " " err "${err}")
if(rc EQUAL 0)
  message(FATAL_ERROR "the checker accepted includes a layer must not see")
endif()
set(expected
  "models/controllers/bad.cpp: includes models/sim/clusterimpl.h"
  "models/backend/livebad.cpp: includes models/sim/cluster.h"
  "models/snapshot/bad.cpp: includes models/sim/cluster.h"
  "models/planners/bad.cpp: includes models/embedded/snapshotbuilder.h"
  "models/liveupgrade/bad.cpp: includes models/server/apiserver.h"
  "models/kube/bad.h: includes models/api/kind.h"
  "models/sim/bad.cpp: includes models/client/kubeclient.h"
  "models/sim/badscenario.h: includes models/scenario/scenario.h"
  "models/store/bad.cpp: includes models/sim/kubelet.h"
  "models/store/badcontroller.cpp: includes models/controllers/daemonsetcontroller.h"
  "models/controllers/badstore.cpp: includes models/store/store.h"
  "models/backend/livebadscenario.cpp: includes models/scenario/scenarioparser.h"
  "ui/badwidget.cpp: includes models/controllers/nodeupgradecontroller.h")
foreach(line ${expected})
  string(FIND "${err}" "${line}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the checker did not name \"${line}\":\n${err}")
  endif()
endforeach()
foreach(fineFile models/controllers/fine.cpp models/store/fine.cpp models/sim/fine.cpp models/scenario/fine.cpp models/embedded/fine.cpp
                 ui/finewidget.cpp)
  string(FIND "${err}" "${fineFile}:" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "the checker refused an allowed file ${fineFile}:\n${err}")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK})
message(STATUS "includerules: the tree keeps the rules; the checker refuses all thirteen stray includes")
