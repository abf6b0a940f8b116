# Checks which layers each source includes: a layer may include the headers of the layers it
# links, and no others, so that a controller that reaches into the store's internals, a live
# path that reaches into the simulator or a widget that reaches past models/ fails the build
# (this script runs as a build step, target includerules) and names the line.
#   cmake -DROOT=<source dir> -P cmake/IncludeRules.cmake
# Only the project's own headers are checked: quoted includes that name a top-level folder
# (models/, ui/, app/, tests/).
if(NOT ROOT)
  message(FATAL_ERROR "includerules: ROOT is not set")
endif()

set(kube models/kube)
set(diff ${kube} models/diff)
set(api ${diff} models/api)
set(store ${api} models/store)
set(controllers ${api} models/controllers)
set(sim ${controllers} models/store models/sim)
set(scenario ${sim} models/scenario)
set(client ${kube} models/client)
set(server ${sim} models/server)
# The rooms of the Qt bridge's target `models` (everything but the simulator) and of its target
# `embedded` (the embedded backend).
set(rooms snapshot backend liveupgrade history settings planners itemmodels)
set(roomDirs)
foreach(room ${rooms})
  list(APPEND roomDirs models/${room})
endforeach()
# `models` — the live-cluster path among them — sees the API rules, the controllers, the client and
# its rooms, never the simulator, the scenarios run on it or the server that wraps it; `embedded`
# sees those and the simulation and the scenarios.
set(live ${controllers} models/client ${roomDirs})
set(bridge ${live} models/sim models/scenario models/embedded)
# Widgets see the bridge's rooms, the embedded backend and the value types, not the simulation, the
# scenarios, the controllers, the client or the server.
set(widgets models/kube models/diff models/api ui ${roomDirs} models/embedded)

# folder (relative to ROOT), file name pattern, the allowed include prefixes' variable
set(rules
  "models/kube|*|kube" "models/diff|*|diff" "models/api|*|api" "models/store|*|store" "models/controllers|*|controllers"
  "models/sim|*|sim" "models/scenario|*|scenario" "models/client|*|client"
  "models/server|*|server" "models/embedded|*|bridge" "ui|*|widgets")
foreach(room ${rooms})
  list(APPEND rules "models/${room}|*|live")
endforeach()

set(problems)
foreach(rule ${rules})
  string(REPLACE "|" ";" parts "${rule}")
  list(GET parts 0 dir)
  list(GET parts 1 pattern)
  list(GET parts 2 allowedVar)
  set(allowed ${${allowedVar}})
  file(GLOB sources ${ROOT}/${dir}/${pattern}.cpp ${ROOT}/${dir}/${pattern}.h)
  foreach(source ${sources})
    file(STRINGS ${source} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"(models|ui|app|tests)/")
    foreach(line ${includes})
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" header "${line}")
      get_filename_component(headerDir ${header} DIRECTORY)
      list(FIND allowed ${headerDir} found)
      if(found EQUAL -1)
        file(RELATIVE_PATH rel ${ROOT} ${source})
        list(APPEND problems "${rel}: includes ${header}, outside what ${dir}/${pattern} may see")
      endif()
    endforeach()
  endforeach()
endforeach()
if(problems)
  list(JOIN problems "\n" text)
  message(FATAL_ERROR "includerules:\n${text}")
endif()
