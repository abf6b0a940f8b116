<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>QPlatformTheme</name>
    <message>
        <source>OK</source>
        <translation>OK</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Öffnen</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Anwenden</translation>
    </message>
    <message>
        <source>&amp;Yes</source>
        <translation>&amp;Ja</translation>
    </message>
    <message>
        <source>&amp;No</source>
        <translation>&amp;Nein</translation>
    </message>
    <message>
        <source>Help</source>
        <translation>Hilfe</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>Verwerfen</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>Zurücksetzen</translation>
    </message>
</context>
<context>
    <name>UpgradeEvent</name>
    <message>
        <source>Rollout to {target} started: {nodes} incompatible node(s), maxUnavailable {maxUnavailable}</source>
        <translation>Rollout auf {target} gestartet: {nodes} inkompatible Node(s), maxUnavailable {maxUnavailable}</translation>
    </message>
    <message>
        <source>All {nodes} node(s) run {target}</source>
        <translation>Alle {nodes} Node(s) laufen mit {target}</translation>
    </message>
    <message>
        <source>Completed with exceptions: {skipped} skipped, {failed} failed; they still run the old agent</source>
        <translation>Mit Ausnahmen abgeschlossen: {skipped} übersprungen, {failed} fehlgeschlagen; sie laufen noch mit dem alten Agent</translation>
    </message>
    <message>
        <source>Resumed by {actor}; first pass: {preview}</source>
        <translation>Fortgesetzt von {actor}; erster Durchlauf: {preview}</translation>
    </message>
    <message>
        <source>Abort requested by {actor}; waiting for {inFlight} node(s) restarting or soaking</source>
        <translation>Abbruch angefordert von {actor}; wartet auf {inFlight} Node(s) im Neustart oder in Beobachtung</translation>
    </message>
    <message>
        <source>Rollout aborted; remaining nodes stay incompatible for a later rollout</source>
        <translation>Rollout abgebrochen; die übrigen Nodes bleiben für einen späteren Rollout inkompatibel</translation>
    </message>
    <message>
        <source>Halted: {failed} node(s) failed ({nodes}); acknowledge to resume</source>
        <translation>Angehalten: {failed} Node(s) fehlgeschlagen ({nodes}); zum Fortsetzen bestätigen</translation>
    </message>
    <message>
        <source>Failures of {nodes} acknowledged by {actor}</source>
        <translation>Fehler von {nodes} bestätigt von {actor}</translation>
    </message>
    <message>
        <source>No new node outside the maintenance window</source>
        <translation>Kein neuer Node außerhalb des Wartungsfensters</translation>
    </message>
    <message>
        <source>No new node: {gate}</source>
        <translation>Kein neuer Node: {gate}</translation>
    </message>
    <message>
        <source>No new node: pod {pod} would not fit elsewhere</source>
        <translation>Kein neuer Node: Pod {pod} passte nirgendwo anders hin</translation>
    </message>
    <message>
        <source>No new node: budget {used}/{max} in use ({holders})</source>
        <translation>Kein neuer Node: Budget {used}/{max} belegt ({holders})</translation>
    </message>
    <message>
        <source>No new node: every pending node is NotReady ({nodes}); each is upgraded once Ready again, or skip it</source>
        <translation>Kein neuer Node: Jeder wartende Node ist NotReady ({nodes}); jeder wird aktualisiert, sobald er wieder Ready ist, oder überspringen Sie ihn</translation>
    </message>
    <message>
        <source>Refused: node(s) {nodes} already belong to rollout {other}</source>
        <translation>Abgelehnt: Node(s) {nodes} gehören schon zum Rollout {other}</translation>
    </message>
    <message>
        <source>Refused: the only node {node} hosts the controller; set allowSelfRestart to upgrade it</source>
        <translation>Abgelehnt: Der einzige Node {node} beherbergt den Controller; setzen Sie allowSelfRestart, um ihn zu aktualisieren</translation>
    </message>
    <message>
        <source>Agent {version} is not the target {target}; incompatible since {since}</source>
        <translation>Agent {version} ist nicht das Ziel {target}; inkompatibel seit {since}</translation>
    </message>
    <message>
        <source>incompatible-since {value} lies in the future; treated as now</source>
        <translation>incompatible-since {value} liegt in der Zukunft; als jetzt behandelt</translation>
    </message>
    <message>
        <source>Selected: queue position {position}, slot {slot}/{slots}</source>
        <translation>Ausgewählt: Warteschlangenplatz {position}, Platz {slot}/{slots}</translation>
    </message>
    <message>
        <source>{how}</source>
        <translation>{how}</translation>
    </message>
    <message>
        <source>Deleted pod {pod} ({class}, owner {owner})</source>
        <translation>Pod {pod} gelöscht ({class}, Besitzer {owner})</translation>
    </message>
    <message>
        <source>Deletion of {pod} deferred: {rule}</source>
        <translation>Löschen von {pod} aufgeschoben: {rule}</translation>
    </message>
    <message>
        <source>No managed pods left</source>
        <translation>Keine verwalteten Pods mehr</translation>
    </message>
    <message>
        <source>{count} unmanaged pod(s) deleted in {remaining}: {pods}</source>
        <translation>Unverwaltete Pods ({count}) werden gelöscht in {remaining}: {pods}</translation>
    </message>
    <message>
        <source>Deleted {count} unmanaged pod(s): {pods}</source>
        <translation>Unverwaltete Pods gelöscht ({count}): {pods}</translation>
    </message>
    <message>
        <source>Waiting for you: delete pods {pods} or skip the node (policy Never)</source>
        <translation>Wartet auf Sie: Pods {pods} löschen oder den Node überspringen (Richtlinie Never)</translation>
    </message>
    <message>
        <source>No pod has left for {elapsed}; blockers: {blockers}</source>
        <translation>Seit {elapsed} hat kein Pod den Node verlassen; Blockaden: {blockers}</translation>
    </message>
    <message>
        <source>Drain not finished after {limit}; onDrainTimeout {policy}</source>
        <translation>Drain nach {limit} nicht fertig; onDrainTimeout {policy}</translation>
    </message>
    <message>
        <source>Pod {pod} terminating for {elapsed} (grace {grace} + margin {margin})</source>
        <translation>Pod {pod} beendet sich seit {elapsed} (Gnadenfrist {grace} + Spielraum {margin})</translation>
    </message>
    <message>
        <source>Replacement for {pod} of {controller} not Ready after {elapsed}; {controller} stays gated</source>
        <translation>Ersatz für {pod} von {controller} nach {elapsed} nicht Ready; {controller} bleibt gesperrt</translation>
    </message>
    <message>
        <source>Deleted {pod}, the only replica of {controller}</source>
        <translation>{pod} gelöscht, das einzige Replikat von {controller}</translation>
    </message>
    <message>
        <source>Deleted {pod} bypassing the gates (forced by {actor})</source>
        <translation>{pod} unter Umgehung der Prüfungen gelöscht (erzwungen von {actor})</translation>
    </message>
    <message>
        <source>Pod {pod} was bound to the draining node; it is deleted again under the same gates</source>
        <translation>Pod {pod} wurde an den Node im Drain gebunden; er wird unter denselben Prüfungen erneut gelöscht</translation>
    </message>
    <message>
        <source>Asked the agent to restart on {target} (attempt {attempt}, send {send})</source>
        <translation>Agent zum Neustart auf {target} aufgefordert (Versuch {attempt}, Sendung {send})</translation>
    </message>
    <message>
        <source>Agent acknowledged the restart</source>
        <translation>Agent hat den Neustart bestätigt</translation>
    </message>
    <message>
        <source>Node rejoined on {version}</source>
        <translation>Node mit {version} zurückgekehrt</translation>
    </message>
    <message>
        <source>Soaking for {duration}</source>
        <translation>Beobachtung für {duration}</translation>
    </message>
    <message>
        <source>Uncordoned (the controller had cordoned it)</source>
        <translation>Entsperrt (der Controller hatte ihn gesperrt)</translation>
    </message>
    <message>
        <source>Upgraded to {version} in {duration}</source>
        <translation>In {duration} auf {version} aktualisiert</translation>
    </message>
    <message>
        <source>{reason}: {detail}</source>
        <translation>{reason}: {detail}</translation>
    </message>
    <message>
        <source>Held by {actor}{note}</source>
        <translation>Gehalten von {actor}{note}</translation>
    </message>
    <message>
        <source>Released by {actor}</source>
        <translation>Freigegeben von {actor}</translation>
    </message>
    <message>
        <source>Aborted by {actor}: stopped{uncordon}; deleted pods are not restored, their controllers recreate them</source>
        <translation>Abgebrochen von {actor}: angehalten{uncordon}; gelöschte Pods werden nicht wiederhergestellt, ihre Controller erzeugen sie neu</translation>
    </message>
    <message>
        <source>Skipped by {actor}{uncordon}; the node keeps its old agent</source>
        <translation>Übersprungen von {actor}{uncordon}; der Node behält seinen alten Agent</translation>
    </message>
    <message>
        <source>Retry {attempt} by {actor}: {what}</source>
        <translation>Versuch {attempt} von {actor}: {what}</translation>
    </message>
    <message>
        <source>Drain forced by {actor}: remaining pods are deleted bypassing the gates</source>
        <translation>Drain erzwungen von {actor}: Die übrigen Pods werden unter Umgehung der Prüfungen gelöscht</translation>
    </message>
    <message>
        <source>Pod {pod} was deleted by someone else; counted as progress</source>
        <translation>Pod {pod} wurde von jemand anderem gelöscht; zählt als Fortschritt</translation>
    </message>
    <message>
        <source>Someone uncordoned the node while the controller drained it; held (the controller never re-cordons)</source>
        <translation>Jemand hat den Node entsperrt, während der Controller ihn leerte; gehalten (der Controller sperrt nie erneut)</translation>
    </message>
    <message>
        <source>Agent already runs {version}; accepted as upgraded</source>
        <translation>Agent läuft schon mit {version}; als aktualisiert übernommen</translation>
    </message>
    <message>
        <source>Node deleted from the cluster; its slot is free</source>
        <translation>Node aus dem Cluster gelöscht; sein Platz ist frei</translation>
    </message>
    <message>
        <source>Eviction of {pod} refused: {budget}; retried on the next pass</source>
        <translation>Verdrängung von {pod} abgelehnt: {budget}; nächster Versuch beim nächsten Durchlauf</translation>
    </message>
    <message>
        <source>Paused by {actor}{note}; nodes already restarting or soaking finish</source>
        <translation>Pausiert von {actor}{note}; Nodes, die schon neu starten oder beobachtet werden, laufen zu Ende</translation>
    </message>
    <message>
        <source>The API server refused the {write} ({code}: {message}); retried in {delay}</source>
        <translation>Der API-Server hat {write} abgelehnt ({code}: {message}); neuer Versuch in {delay}</translation>
    </message>
    <message>
        <source>Drained; the restart is left to an external tool: waiting for the node to return on {target}</source>
        <translation>Geleert; der Neustart bleibt einem externen Werkzeug überlassen: warte, bis der Knoten auf {target} zurückkehrt</translation>
    </message>
    <message>
        <source>Created restart Job {job} for {target} (attempt {attempt})</source>
        <translation>Neustart-Job {job} für {target} angelegt (Versuch {attempt})</translation>
    </message>
    <message>
        <source>Restart Job {job} runs on the node</source>
        <translation>Neustart-Job {job} läuft auf dem Knoten</translation>
    </message>
</context>
<context>
    <name>UpgradePhrase</name>
    <message>
        <source>{items} and {count} more</source>
        <translation>{items} und {count} weitere</translation>
    </message>
    <message>
        <source>{upToDate}/{nodes} upgraded</source>
        <translation>{upToDate}/{nodes} aktualisiert</translation>
    </message>
    <message>
        <source>{progress} · {inFlight} in flight</source>
        <translation>{progress} · {inFlight} in Arbeit</translation>
    </message>
    <message>
        <source>{progress} · {inFlight} in flight · ETA {eta}</source>
        <translation>{progress} · {inFlight} in Arbeit · noch etwa {eta}</translation>
    </message>
    <message>
        <source>Aborted: {progress}</source>
        <translation>Abgebrochen: {progress}</translation>
    </message>
    <message>
        <source>Aborting: waiting for {nodes}</source>
        <translation>Wird abgebrochen: wartet auf {nodes}</translation>
    </message>
    <message>
        <source>Completed: {progress}</source>
        <translation>Abgeschlossen: {progress}</translation>
    </message>
    <message>
        <source>Completed with exceptions: {progress} · {skipped} skipped · {failed} failed</source>
        <translation>Mit Ausnahmen abgeschlossen: {progress} · {skipped} übersprungen · {failed} fehlgeschlagen</translation>
    </message>
    <message>
        <source>Not started: {refusal}</source>
        <translation>Nicht gestartet: {refusal}</translation>
    </message>
    <message>
        <source>Halted: 1 node failed ({nodes}); acknowledge to resume</source>
        <translation>Angehalten: 1 Node fehlgeschlagen ({nodes}); zum Fortsetzen bestätigen</translation>
    </message>
    <message>
        <source>Halted: {count} nodes failed ({nodes}); acknowledge to resume</source>
        <translation>Angehalten: {count} Nodes fehlgeschlagen ({nodes}); zum Fortsetzen bestätigen</translation>
    </message>
    <message>
        <source>Paused by {actor}</source>
        <translation>Pausiert von {actor}</translation>
    </message>
    <message>
        <source>Paused by {actor} {time}</source>
        <translation>Pausiert von {actor} um {time}</translation>
    </message>
    <message>
        <source>Paused by {actor} — {nodes}</source>
        <translation>Pausiert von {actor} — {nodes}</translation>
    </message>
    <message>
        <source>Paused by {actor} {time} — {nodes}</source>
        <translation>Pausiert von {actor} um {time} — {nodes}</translation>
    </message>
    <message>
        <source>Waiting: {why}</source>
        <translation>Wartet: {why}</translation>
    </message>
    <message>
        <source>budget {used}/{max} used by {holders}</source>
        <translation>Budget {used}/{max} belegt durch {holders}</translation>
    </message>
    <message>
        <source>{node} still soaking ({elapsed}/{limit})</source>
        <translation>{node} noch in Beobachtung ({elapsed}/{limit})</translation>
    </message>
    <message>
        <source>{node} still restarting ({elapsed}/{limit})</source>
        <translation>{node} startet noch neu ({elapsed}/{limit})</translation>
    </message>
    <message>
        <source>{node} holds its slot ({phase})</source>
        <translation>{node} belegt seinen Platz ({phase})</translation>
    </message>
    <message>
        <source>postNodeDelay {elapsed}/{delay} since the last node finished</source>
        <translation>postNodeDelay {elapsed}/{delay} seit dem letzten fertigen Node</translation>
    </message>
    <message>
        <source>only {ready}/{nodes} nodes Ready (minReadyRatio {ratio})</source>
        <translation>nur {ready}/{nodes} Nodes Ready (minReadyRatio {ratio})</translation>
    </message>
    <message>
        <source>{node} (Failed)</source>
        <translation>{node} (fehlgeschlagen)</translation>
    </message>
    <message>
        <source>{node} (cordoned, pending)</source>
        <translation>{node} (gesperrt, wartend)</translation>
    </message>
    <message>
        <source>{node} (cordoned, not part of this rollout)</source>
        <translation>{node} (gesperrt, nicht Teil dieses Rollouts)</translation>
    </message>
    <message>
        <source>{node} (NotReady, pending)</source>
        <translation>{node} (NotReady, wartend)</translation>
    </message>
    <message>
        <source>{node} (NotReady, not part of this rollout)</source>
        <translation>{node} (NotReady, nicht Teil dieses Rollouts)</translation>
    </message>
    <message>
        <source>{nodes} is NotReady; upgraded once Ready again, or skip it</source>
        <translation>{nodes} ist NotReady; wird aktualisiert, sobald wieder Ready, oder überspringen Sie ihn</translation>
    </message>
    <message>
        <source>{nodes} are NotReady; upgraded once Ready again, or skip them</source>
        <translation>{nodes} sind NotReady; werden aktualisiert, sobald wieder Ready, oder überspringen Sie sie</translation>
    </message>
    <message>
        <source>waiting for you: 1 pending node is held; release or skip it</source>
        <translation>wartet auf Sie: 1 wartender Node wird gehalten; geben Sie ihn frei oder überspringen Sie ihn</translation>
    </message>
    <message>
        <source>waiting for you: {count} pending nodes are held; release or skip them</source>
        <translation>wartet auf Sie: {count} wartende Nodes werden gehalten; geben Sie sie frei oder überspringen Sie sie</translation>
    </message>
    <message>
        <source>{node} blocked {elapsed}: {why}</source>
        <translation>{node} blockiert seit {elapsed}: {why}</translation>
    </message>
    <message>
        <source>{pod} {why}</source>
        <translation>{pod} {why}</translation>
    </message>
    <message>
        <source>pdb {pdb}: needs {desired} healthy, has {current}</source>
        <translation>PDB {pdb}: braucht {desired} gesunde, hat {current}</translation>
    </message>
    <message>
        <source>{pod} terminating &gt; grace {grace} + {margin}</source>
        <translation>{pod} beendet sich länger als Gnadenfrist {grace} + {margin}</translation>
    </message>
    <message>
        <source>{pod} (node held)</source>
        <translation>{pod} (Node gehalten)</translation>
    </message>
    <message>
        <source>{pod} (rollout paused)</source>
        <translation>{pod} (Rollout pausiert)</translation>
    </message>
    <message>
        <source>{controller} {ready}/{desired} ready</source>
        <translation>{controller} {ready}/{desired} bereit</translation>
    </message>
    <message>
        <source>{ratio} (below {threshold} %)</source>
        <translation>{ratio} (unter {threshold} %)</translation>
    </message>
    <message>
        <source>{ratio} (not above {threshold} %)</source>
        <translation>{ratio} (nicht über {threshold} %)</translation>
    </message>
    <message>
        <source>{ratio}, 1 deletion in flight</source>
        <translation>{ratio}, 1 Löschung in Arbeit</translation>
    </message>
    <message>
        <source>{ratio}, {count} deletions in flight</source>
        <translation>{ratio}, {count} Löschungen in Arbeit</translation>
    </message>
    <message>
        <source>{controller} has a single replica (policy Block)</source>
        <translation>{controller} hat nur ein Replikat (Richtlinie Block)</translation>
    </message>
    <message>
        <source>{pod} unmanaged, policy Never</source>
        <translation>{pod} unverwaltet, Richtlinie Never</translation>
    </message>
    <message>
        <source>{pod} unmanaged, deleted in {remaining}</source>
        <translation>{pod} unverwaltet, wird gelöscht in {remaining}</translation>
    </message>
    <message>
        <source>NotReady: waits until the node is Ready again</source>
        <translation>NotReady: wartet, bis der Node wieder Ready ist</translation>
    </message>
    <message>
        <source>drainTimeout {elapsed}/{limit}</source>
        <translation>drainTimeout {elapsed}/{limit}</translation>
    </message>
    <message>
        <source>returnTimeout {elapsed}/{limit}</source>
        <translation>returnTimeout {elapsed}/{limit}</translation>
    </message>
    <message>
        <source>ackTimeout {elapsed}/{limit}</source>
        <translation>ackTimeout {elapsed}/{limit}</translation>
    </message>
    <message>
        <source>soak {elapsed}/{limit}</source>
        <translation>Beobachtung {elapsed}/{limit}</translation>
    </message>
    <message>
        <source>more than {duration}</source>
        <translation>mehr als {duration}</translation>
    </message>
    <message>
        <source>{duration} (at {time})</source>
        <translation>{duration} (um {time})</translation>
    </message>
    <message>
        <source> ({note})</source>
        <translation> ({note})</translation>
    </message>
    <message>
        <source>, uncordoned</source>
        <translation>, entsperrt</translation>
    </message>
    <message>
        <source>Cordoned by the controller</source>
        <translation>Vom Controller gesperrt</translation>
    </message>
    <message>
        <source>Already cordoned by someone else; that cordon is left as it is</source>
        <translation>Bereits von jemand anderem gesperrt; diese Sperre bleibt, wie sie ist</translation>
    </message>
    <message>
        <source>soaking again</source>
        <translation>erneute Beobachtung</translation>
    </message>
    <message>
        <source>re-sending the restart</source>
        <translation>Neustart-Anforderung wird erneut gesendet</translation>
    </message>
    <message>
        <source>back to Pending</source>
        <translation>zurück auf Wartend</translation>
    </message>
    <message>
        <source>no node</source>
        <translation>kein Node</translation>
    </message>
    <message>
        <source>rejoined on {version} instead of {target}</source>
        <translation>mit {version} statt {target} zurückgekehrt</translation>
    </message>
    <message>
        <source>did not return within {limit} after restart</source>
        <translation>nach dem Neustart nicht innerhalb von {limit} zurückgekehrt</translation>
    </message>
    <message>
        <source>NotReady during the soak</source>
        <translation>NotReady während der Beobachtung</translation>
    </message>
    <message>
        <source>DaemonSet pods not Ready after the soak</source>
        <translation>DaemonSet-Pods nach der Beobachtung nicht Ready</translation>
    </message>
    <message>
        <source>no acknowledgement after 1 restart request(s)</source>
        <translation>keine Bestätigung nach 1 Neustart-Anforderung</translation>
    </message>
    <message>
        <source>no acknowledgement after {count} restart request(s)</source>
        <translation>keine Bestätigung nach {count} Neustart-Anforderungen</translation>
    </message>
    <message>
        <source>managed, {rule}</source>
        <translation>verwaltet, {rule}</translation>
    </message>
    <message>
        <source>unmanaged, countdown expired</source>
        <translation>unverwaltet, Frist abgelaufen</translation>
    </message>
    <message>
        <source>unmanaged, policy Immediate</source>
        <translation>unverwaltet, Richtlinie Immediate</translation>
    </message>
    <message>
        <source>forced</source>
        <translation>erzwungen</translation>
    </message>
    <message>
        <source>select {nodes}</source>
        <translation>auswählen: {nodes}</translation>
    </message>
    <message>
        <source>delete {pods}</source>
        <translation>löschen: {pods}</translation>
    </message>
    <message>
        <source>restart {nodes}</source>
        <translation>neu starten: {nodes}</translation>
    </message>
    <message>
        <source>{pod} ({why})</source>
        <translation>{pod} ({why})</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>nichts</translation>
    </message>
    <message>
        <source>cordon</source>
        <translation>das Sperren</translation>
    </message>
    <message>
        <source>uncordon</source>
        <translation>das Entsperren</translation>
    </message>
    <message>
        <source>update of the node&apos;s upgrade annotations</source>
        <translation>die Aktualisierung der Upgrade-Annotationen des Nodes</translation>
    </message>
    <message>
        <source>taint {taint}</source>
        <translation>den Taint {taint}</translation>
    </message>
    <message>
        <source>removal of taint {taint}</source>
        <translation>das Entfernen des Taints {taint}</translation>
    </message>
    <message>
        <source>eviction of {pod}</source>
        <translation>die Verdrängung von {pod}</translation>
    </message>
    <message>
        <source>deletion of {pod}</source>
        <translation>das Löschen von {pod}</translation>
    </message>
    <message>
        <source>status update</source>
        <translation>die Statusaktualisierung</translation>
    </message>
    <message>
        <source>{object}: {write} refused ({code}), {count} time(s) in a row; next try at {time}</source>
        <translation>{object}: {write} abgelehnt ({code}), {count}-mal in Folge; nächster Versuch um {time}</translation>
    </message>
    <message>
        <source>{pod} keeps data in emptyDir, localDataPolicy Block</source>
        <translation>{pod} hat Daten in emptyDir, localDataPolicy Block</translation>
    </message>
    <message>
        <source>creation of Job {job}</source>
        <translation>Anlegen des Jobs {job}</translation>
    </message>
    <message>
        <source>restart Job {job} failed ({reason}: {message})</source>
        <translation>Neustart-Job {job} fehlgeschlagen ({reason}: {message})</translation>
    </message>
    <message>
        <source>restart Job {job} has no running pod after {limit}</source>
        <translation>Neustart-Job {job} hat nach {limit} keinen laufenden Pod</translation>
    </message>
</context>
<context>
    <name>app</name>
    <message>
        <source>Desktop console for DaemonSet rollouts</source>
        <translation>Desktop-Konsole für DaemonSet-Rollouts</translation>
    </message>
    <message>
        <source>Open this scenario instead of the demo.</source>
        <translation>Dieses Szenario statt der Demo öffnen.</translation>
    </message>
    <message>
        <source>Virtual clock speed (0 = paused, up to 1000).</source>
        <translation>Geschwindigkeit der virtuellen Uhr (0 = angehalten, bis 1000).</translation>
    </message>
    <message>
        <source>Select this DaemonSet (namespace/name).</source>
        <translation>Dieses DaemonSet auswählen (Namespace/Name).</translation>
    </message>
    <message>
        <source>Show this tab: timeline, nodes, diff, events or progress.</source>
        <translation>Diesen Tab zeigen: timeline, nodes, diff, events oder progress.</translation>
    </message>
    <message>
        <source>Save a screenshot of the window to FILE and quit.</source>
        <translation>Ein Bildschirmfoto des Fensters in DATEI speichern und beenden.</translation>
    </message>
    <message>
        <source>The tab shown in the screenshot.</source>
        <translation>Der Tab, den das Bildschirmfoto zeigt.</translation>
    </message>
    <message>
        <source>Screenshot delay, or quit after MS milliseconds.</source>
        <translation>Verzögerung des Bildschirmfotos, oder nach MS Millisekunden beenden.</translation>
    </message>
    <message>
        <source>Keep the history in this SQLite file instead of the standard one.</source>
        <translation>Den Verlauf in dieser SQLite-Datei statt der üblichen führen.</translation>
    </message>
    <message>
        <source>Watch the cluster of this kubeconfig file.</source>
        <translation>Den Cluster dieser kubeconfig-Datei beobachten.</translation>
    </message>
    <message>
        <source>Watch the cluster of this kubeconfig context.</source>
        <translation>Den Cluster dieses kubeconfig-Kontexts beobachten.</translation>
    </message>
    <message>
        <source>Start a node-agent upgrade: the start form&apos;s defaults, with these spec fields (a JSON object) replaced.</source>
        <translation>Ein Upgrade der Node-Agents starten: die Vorgaben des Startformulars, mit diesen Spec-Feldern (ein JSON-Objekt) ersetzt.</translation>
    </message>
    <message>
        <source>Live cluster: watch this namespace (default: the context&apos;s).</source>
        <translation>Live-Cluster: diesen Namespace beobachten (Standard: den des Kontexts).</translation>
    </message>
    <message>
        <source>Live cluster: watch every namespace.</source>
        <translation>Live-Cluster: alle Namespaces beobachten.</translation>
    </message>
</context>
<context>
    <name>gui::CommandPalette</name>
    <message>
        <source>Go To</source>
        <translation>Springen zu</translation>
    </message>
    <message>
        <source>DaemonSet, node, upgrade or command…</source>
        <translation>DaemonSet, Node, Upgrade oder Befehl…</translation>
    </message>
    <message>
        <source>↑↓ choose · Return go · Esc close</source>
        <translation>↑↓ wählen · Eingabe springen · Esc schließen</translation>
    </message>
</context>
<context>
    <name>gui::Confirmation</name>
    <message>
        <source>Production context %1: type &lt;b&gt;%2&lt;/b&gt; to confirm.</source>
        <translation>Produktionskontext %1: Geben Sie zur Bestätigung &lt;b&gt;%2&lt;/b&gt; ein.</translation>
    </message>
    <message>
        <source>Name to confirm</source>
        <translation>Name zur Bestätigung</translation>
    </message>
</context>
<context>
    <name>gui::ConnectDialog</name>
    <message>
        <source>Connect to Cluster</source>
        <translation>Mit Cluster verbinden</translation>
    </message>
    <message>
        <source>KUBECONFIG: %1</source>
        <translation>KUBECONFIG: %1</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>All namespaces</source>
        <translation>Alle Namespaces</translation>
    </message>
    <message>
        <source>&amp;Kubeconfig:</source>
        <translation>&amp;Kubeconfig:</translation>
    </message>
    <message>
        <source>C&amp;ontext:</source>
        <translation>K&amp;ontext:</translation>
    </message>
    <message>
        <source>Server:</source>
        <translation>Server:</translation>
    </message>
    <message>
        <source>&amp;Namespace:</source>
        <translation>&amp;Namespace:</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>Verbinden</translation>
    </message>
    <message>
        <source>Choose a Kubeconfig</source>
        <translation>Kubeconfig auswählen</translation>
    </message>
    <message>
        <source>&amp;Connect to Cluster…</source>
        <translation>Mit &amp;Cluster verbinden…</translation>
    </message>
    <message>
        <source>Watch a real cluster through a kubeconfig context</source>
        <translation>Einen echten Cluster über einen kubeconfig-Kontext beobachten</translation>
    </message>
    <message>
        <source>&amp;Embedded Demo Cluster</source>
        <translation>&amp;Eingebetteter Demo-Cluster</translation>
    </message>
    <message>
        <source>Return to the simulated cluster</source>
        <translation>Zum simulierten Cluster zurückkehren</translation>
    </message>
    <message>
        <source>No kubeconfig: neither KUBECONFIG nor HOME is set. Choose a file with Browse….</source>
        <translation>Keine kubeconfig: weder KUBECONFIG noch HOME ist gesetzt. Wählen Sie eine Datei mit „Durchsuchen…“.</translation>
    </message>
    <message>
        <source>No kubeconfig found (looked for %1). Choose a file with Browse….</source>
        <translation>Keine kubeconfig gefunden (gesucht: %1). Wählen Sie eine Datei mit „Durchsuchen…“.</translation>
    </message>
    <message>
        <source>The kubeconfig %1 has no contexts.</source>
        <translation>Die kubeconfig %1 enthält keine Kontexte.</translation>
    </message>
</context>
<context>
    <name>gui::DaemonSetPage</name>
    <message>
        <source>Choose a DaemonSet in the explorer to see its revisions, nodes, diffs and events.</source>
        <translation>Wählen Sie im Explorer ein DaemonSet, um seine Revisionen, Nodes, Diffs und Events zu sehen.</translation>
    </message>
    <message>
        <source>DaemonSet</source>
        <translation>DaemonSet</translation>
    </message>
    <message>
        <source>Rollout status</source>
        <translation>Rollout-Status</translation>
    </message>
    <message>
        <source>Counts and strategy</source>
        <translation>Zähler und Strategie</translation>
    </message>
    <message>
        <source>Why the rollout is waiting</source>
        <translation>Warum der Rollout wartet</translation>
    </message>
    <message>
        <source>DaemonSet views</source>
        <translation>DaemonSet-Ansichten</translation>
    </message>
    <message>
        <source>&amp;Timeline</source>
        <translation>&amp;Zeitleiste</translation>
    </message>
    <message>
        <source>&amp;Nodes</source>
        <translation>&amp;Nodes</translation>
    </message>
    <message>
        <source>&amp;Diff</source>
        <translation>&amp;Diff</translation>
    </message>
    <message>
        <source>Filter events: reason, object or message</source>
        <translation>Events filtern: Grund, Objekt oder Meldung</translation>
    </message>
    <message>
        <source>Event filter</source>
        <translation>Event-Filter</translation>
    </message>
    <message>
        <source>&amp;Whole cluster</source>
        <translation>&amp;Ganzer Cluster</translation>
    </message>
    <message>
        <source>Show the events of every object, not only this DaemonSet and its pods</source>
        <translation>Die Events aller Objekte zeigen, nicht nur die dieses DaemonSets und seiner Pods</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Events</translation>
    </message>
    <message>
        <source>&amp;Events</source>
        <translation>&amp;Events</translation>
    </message>
    <message>
        <source>&amp;Progress</source>
        <translation>&amp;Fortschritt</translation>
    </message>
    <message>
        <source>DaemonSet %1 is not in the cluster (any more).</source>
        <translation>DaemonSet %1 ist nicht (mehr) im Cluster.</translation>
    </message>
    <message>
        <source>RollingUpdate (maxUnavailable %1, maxSurge %2)</source>
        <translation>RollingUpdate (maxUnavailable %1, maxSurge %2)</translation>
    </message>
    <message>
        <source>Revision %1 · %2 · desired %3 · updated %4 · ready %5 · available %6 · unavailable %7</source>
        <translation>Revision %1 · %2 · gewünscht %3 · aktualisiert %4 · bereit %5 · verfügbar %6 · nicht verfügbar %7</translation>
    </message>
    <message>
        <source>Event type</source>
        <translation>Ereignistyp</translation>
    </message>
    <message>
        <source>All types</source>
        <translation>Alle Typen</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>Warnungen</translation>
    </message>
    <message>
        <source>Normal</source>
        <translation>Normal</translation>
    </message>
    <message numerus="yes">
        <source>No event matches the filter (%n hidden).</source>
        <translation>
            <numerusform>Kein Ereignis passt zum Filter (%n ausgeblendet).</numerusform>
            <numerusform>Kein Ereignis passt zum Filter (%n ausgeblendet).</numerusform>
        </translation>
    </message>
    <message>
        <source>No events in the cluster. Kubernetes keeps events for an hour by default (kube-apiserver --event-ttl), so a quiet cluster has none.</source>
        <translation>Keine Ereignisse im Cluster. Kubernetes bewahrt Ereignisse standardmäßig eine Stunde auf (kube-apiserver --event-ttl), ein ruhiger Cluster hat daher keine.</translation>
    </message>
    <message>
        <source>No events for %1 or its pods. Kubernetes keeps events for an hour by default (kube-apiserver --event-ttl); tick Whole cluster to see the events of other objects.</source>
        <translation>Keine Ereignisse für %1 oder seine Pods. Kubernetes bewahrt Ereignisse standardmäßig eine Stunde auf (kube-apiserver --event-ttl); „Ganzer Cluster“ zeigt die Ereignisse anderer Objekte.</translation>
    </message>
    <message>
        <source>Managed by</source>
        <translation>Verwaltet von</translation>
    </message>
    <message>
        <source>Set Image…</source>
        <translation>Image setzen…</translation>
    </message>
    <message>
        <source>kubectl set image: change container images, with a preview</source>
        <translation>kubectl set image: Container-Images ändern, mit Vorschau</translation>
    </message>
    <message>
        <source>Restart…</source>
        <translation>Neu starten…</translation>
    </message>
    <message>
        <source>kubectl rollout restart: replace every pod, with a preview</source>
        <translation>kubectl rollout restart: alle Pods ersetzen, mit Vorschau</translation>
    </message>
    <message>
        <source>Update Strategy…</source>
        <translation>Update-Strategie…</translation>
    </message>
    <message>
        <source>Edit maxUnavailable and maxSurge, with a preview</source>
        <translation>maxUnavailable und maxSurge bearbeiten, mit Vorschau</translation>
    </message>
    <message>
        <source>managed by %1</source>
        <translation>verwaltet von %1</translation>
    </message>
</context>
<context>
    <name>gui::DiffTab</name>
    <message>
        <source>Old revision</source>
        <translation>Alte Revision</translation>
    </message>
    <message>
        <source>New revision</source>
        <translation>Neue Revision</translation>
    </message>
    <message>
        <source>&amp;Old:</source>
        <translation>&amp;Alt:</translation>
    </message>
    <message>
        <source>&amp;New:</source>
        <translation>&amp;Neu:</translation>
    </message>
    <message>
        <source>Swap</source>
        <translation>Tauschen</translation>
    </message>
    <message>
        <source>Swap old and new</source>
        <translation>Alt und neu vertauschen</translation>
    </message>
    <message>
        <source>Template diff</source>
        <translation>Template-Diff</translation>
    </message>
    <message>
        <source>revision %1 (%2)</source>
        <translation>Revision %1 (%2)</translation>
    </message>
    <message>
        <source>revision %1 (%2, removed)</source>
        <translation>Revision %1 (%2, entfernt)</translation>
    </message>
    <message>
        <source>live template</source>
        <translation>Live-Template</translation>
    </message>
    <message>
        <source>Live template (spec.template)</source>
        <translation>Live-Template (spec.template)</translation>
    </message>
    <message>
        <source>Revision %1 (current) · %2 · %3</source>
        <translation>Revision %1 (aktuell) · %2 · %3</translation>
    </message>
    <message>
        <source>Revision %1 · %2 · %3</source>
        <translation>Revision %1 · %2 · %3</translation>
    </message>
    <message>
        <source>Revision %1 (removed) · %2 · %3</source>
        <translation>Revision %1 (entfernt) · %2 · %3</translation>
    </message>
</context>
<context>
    <name>gui::DiffView</name>
    <message>
        <source>Template diff</source>
        <translation>Template-Diff</translation>
    </message>
    <message>
        <source>&amp;Hide server noise</source>
        <translation>Server-&amp;Rauschen ausblenden</translation>
    </message>
    <message>
        <source>Hide fields the API server fills in with defaults, and generated labels and annotations</source>
        <translation>Felder ausblenden, die der API-Server mit Standardwerten füllt, sowie generierte Labels und Annotations</translation>
    </message>
    <message>
        <source>Change %1 of %2</source>
        <translation>Änderung %1 von %2</translation>
    </message>
    <message>
        <source>Previous change (Shift+F7, Alt+Up)</source>
        <translation>Vorherige Änderung (Umschalt+F7, Alt+Hoch)</translation>
    </message>
    <message>
        <source>Previous change</source>
        <translation>Vorherige Änderung</translation>
    </message>
    <message>
        <source>Next change (F7, Alt+Down)</source>
        <translation>Nächste Änderung (F7, Alt+Runter)</translation>
    </message>
    <message>
        <source>Next change</source>
        <translation>Nächste Änderung</translation>
    </message>
    <message>
        <source>Summary of changes</source>
        <translation>Zusammenfassung der Änderungen</translation>
    </message>
    <message>
        <source>Old</source>
        <translation>Alt</translation>
    </message>
    <message>
        <source>New</source>
        <translation>Neu</translation>
    </message>
    <message>
        <source>Old template: %1</source>
        <translation>Altes Template: %1</translation>
    </message>
    <message>
        <source>New template: %1</source>
        <translation>Neues Template: %1</translation>
    </message>
    <message>
        <source>No differences apart from server-side noise</source>
        <translation>Keine Unterschiede außer serverseitigem Rauschen</translation>
    </message>
    <message>
        <source>The templates are identical</source>
        <translation>Die Templates sind identisch</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message numerus="yes">
        <source>%n changes</source>
        <translation>
            <numerusform>%n Änderung</numerusform>
            <numerusform>%n Änderungen</numerusform>
        </translation>
    </message>
    <message>
        <source>All differences are fields the API server fills in. Tick “Hide server noise” to hide them.</source>
        <translation>Alle Unterschiede sind Felder, die der API-Server ausfüllt. „Server-Rauschen ausblenden“ blendet sie aus.</translation>
    </message>
    <message>
        <source>No changes</source>
        <translation>Keine Änderungen</translation>
    </message>
</context>
<context>
    <name>gui::DrainDialog</name>
    <message>
        <source>… and %1 more</source>
        <translation>… und %1 weitere</translation>
    </message>
    <message>
        <source>Drain %1</source>
        <translation>Drain von %1</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Drain %1&lt;/b&gt;: cordon the node, then evict its pods through the Eviction API, as &lt;tt&gt;kubectl drain %1 --ignore-daemonsets&lt;/tt&gt; does.%2&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Drain von %1&lt;/b&gt;: den Node sperren und dann seine Pods über die Eviction-API verdrängen, wie es &lt;tt&gt;kubectl drain %1 --ignore-daemonsets&lt;/tt&gt; tut.%2&lt;/p&gt;</translation>
    </message>
    <message>
        <source> The node is cordoned already.</source>
        <translation> Der Node ist bereits gesperrt.</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Evicted:&lt;/b&gt; 1 pod of a ReplicaSet, Deployment, StatefulSet or Job; its controller recreates it on another node.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Verdrängt:&lt;/b&gt; 1 Pod eines ReplicaSets, Deployments, StatefulSets oder Jobs; sein Controller erstellt ihn auf einem anderen Node neu.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Evicted:&lt;/b&gt; %1 pods of ReplicaSets, Deployments, StatefulSets or Jobs; their controllers recreate them on other nodes.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Verdrängt:&lt;/b&gt; %1 Pods von ReplicaSets, Deployments, StatefulSets oder Jobs; ihre Controller erstellen sie auf anderen Nodes neu.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Evicted:&lt;/b&gt; no pods besides finished ones.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Verdrängt:&lt;/b&gt; keine Pods außer bereits beendeten.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Evicted:&lt;/b&gt; every pod on the node that has a controller; the drain lists them when it starts.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Verdrängt:&lt;/b&gt; jeder Pod auf dem Node, der einen Controller hat; der Drain listet sie beim Start auf.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Skipped&lt;/b&gt; (DaemonSet pods: the DaemonSet controller would put them back at once):&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Übersprungen&lt;/b&gt; (DaemonSet-Pods: Der DaemonSet-Controller würde sie sofort zurückbringen):&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Also skipped: mirror pods of static pods. Finished pods are removed.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Ebenfalls übersprungen: Mirror-Pods statischer Pods. Beendete Pods werden entfernt.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Refused:&lt;/b&gt; pods without a controller would be lost, so the drain stops before evicting anything (kubectl: use --force):&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Abgelehnt:&lt;/b&gt; Pods ohne Controller gingen verloren, daher bricht der Drain ab, bevor er etwas verdrängt (kubectl: --force verwenden):&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;PodDisruptionBudgets&lt;/b&gt; decide every eviction. A pod whose budget allows no disruption is retried for 15 s; then the drain finishes, the node stays cordoned, and the outcome names the pod and the budget with its numbers.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;PodDisruptionBudgets&lt;/b&gt; entscheiden über jede Verdrängung. Ein Pod, dessen Budget keine Unterbrechung erlaubt, wird 15 s lang erneut versucht; dann endet der Drain, der Node bleibt gesperrt, und das Ergebnis nennt den Pod und das Budget mit seinen Zahlen.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Delete &amp;emptyDir data (--delete-emptydir-data)</source>
        <translation>&amp;emptyDir-Daten löschen (--delete-emptydir-data)</translation>
    </message>
    <message>
        <source>Pods with emptyDir volumes are refused unless their scratch data may be lost</source>
        <translation>Pods mit emptyDir-Volumes werden abgelehnt, sofern ihre temporären Daten nicht verloren gehen dürfen</translation>
    </message>
    <message>
        <source>&amp;Drain</source>
        <translation>&amp;Drain</translation>
    </message>
</context>
<context>
    <name>gui::ExportJob</name>
    <message>
        <source>Writing %1…</source>
        <translation>Schreibe %1…</translation>
    </message>
    <message>
        <source>Export progress</source>
        <translation>Exportfortschritt</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Wrote %1 (%2 bytes)</source>
        <translation>%1 geschrieben (%2 Bytes)</translation>
    </message>
</context>
<context>
    <name>gui::FaultDialog</name>
    <message>
        <source>The node&apos;s Ready condition turns False; its pods stop being ready.</source>
        <translation>Die Ready-Condition des Nodes wird False; seine Pods sind nicht mehr bereit.</translation>
    </message>
    <message>
        <source>Recover: the node becomes Ready again and the fault is cleared.</source>
        <translation>Erholen: Der Node wird wieder Ready und die Störung ist behoben.</translation>
    </message>
    <message>
        <source>The node stops reporting (Ready=Unknown), as when the network splits.</source>
        <translation>Der Node meldet sich nicht mehr (Ready=Unknown), wie bei einer Netzwerktrennung.</translation>
    </message>
    <message>
        <source>The node stays Ready but its agent never acknowledges a restart.</source>
        <translation>Der Node bleibt Ready, aber sein Agent bestätigt nie einen Neustart.</translation>
    </message>
    <message>
        <source>After its next agent restart the node goes away for good.</source>
        <translation>Nach dem nächsten Neustart seines Agents verschwindet der Node endgültig.</translation>
    </message>
    <message>
        <source>After its next agent restart the node comes back on the old version.</source>
        <translation>Nach dem nächsten Neustart seines Agents kommt der Node mit der alten Version zurück.</translation>
    </message>
    <message>
        <source>After its next restart the node flips between NotReady and Ready.</source>
        <translation>Nach dem nächsten Neustart wechselt der Node ständig zwischen NotReady und Ready.</translation>
    </message>
    <message>
        <source>Inject Fault</source>
        <translation>Störung auslösen</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>Node</translation>
    </message>
    <message>
        <source>&amp;Node:</source>
        <translation>&amp;Node:</translation>
    </message>
    <message>
        <source>Fault</source>
        <translation>Störung</translation>
    </message>
    <message>
        <source>&amp;Fault:</source>
        <translation>&amp;Störung:</translation>
    </message>
    <message>
        <source>&amp;Inject</source>
        <translation>&amp;Auslösen</translation>
    </message>
    <message>
        <source>Its next restart is over before the node is seen NotReady: only the version and the boot ID change.</source>
        <translation>Der nächste Neustart ist vorbei, bevor der Node als NotReady gilt: Nur die Version und die Boot-ID ändern sich.</translation>
    </message>
</context>
<context>
    <name>gui::LanguageMenu</name>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Sprache</translation>
    </message>
    <message>
        <source>Takes effect when Daemonscope is restarted</source>
        <translation>Wirkt nach einem Neustart von Daemonscope</translation>
    </message>
    <message>
        <source>&amp;System (%1)</source>
        <translation>&amp;System (%1)</translation>
    </message>
    <message>
        <source>The language changes to %1 when Daemonscope is restarted.</source>
        <translation>Die Sprache wechselt nach einem Neustart von Daemonscope zu %1.</translation>
    </message>
</context>
<context>
    <name>gui::MainWindow</name>
    <message>
        <source>Speed 1×</source>
        <translation>Geschwindigkeit 1×</translation>
    </message>
    <message>
        <source>Speed 10×</source>
        <translation>Geschwindigkeit 10×</translation>
    </message>
    <message>
        <source>Speed 100×</source>
        <translation>Geschwindigkeit 100×</translation>
    </message>
    <message>
        <source>Speed 1000×</source>
        <translation>Geschwindigkeit 1000×</translation>
    </message>
    <message>
        <source>%1
Desired %2 · updated %3 · available %4 · unavailable %5
%6</source>
        <translation>%1
Gewünscht %2 · aktualisiert %3 · verfügbar %4 · nicht verfügbar %5
%6</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>Aktualisiert</translation>
    </message>
    <message>
        <source>Pods on the current revision / desired pods</source>
        <translation>Pods auf der aktuellen Revision / gewünschte Pods</translation>
    </message>
    <message>
        <source>Daemonscope</source>
        <translation>Daemonscope</translation>
    </message>
    <message>
        <source>DaemonSet</source>
        <translation>DaemonSet</translation>
    </message>
    <message>
        <source>Find DaemonSet or namespace</source>
        <translation>DaemonSet oder Namespace suchen</translation>
    </message>
    <message>
        <source>Explorer filter</source>
        <translation>Explorer-Filter</translation>
    </message>
    <message>
        <source>Explorer</source>
        <translation>Explorer</translation>
    </message>
    <message>
        <source>&amp;Open Scenario…</source>
        <translation>Szenario ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>Load a scenario file into the embedded cluster</source>
        <translation>Eine Szenariodatei in den eingebetteten Cluster laden</translation>
    </message>
    <message>
        <source>&amp;Reload Scenario</source>
        <translation>Szenario &amp;neu laden</translation>
    </message>
    <message>
        <source>Start the current scenario again from its first step</source>
        <translation>Das aktuelle Szenario ab dem ersten Schritt neu starten</translation>
    </message>
    <message>
        <source>&amp;Export History Report…</source>
        <translation>Verlaufsbericht &amp;exportieren…</translation>
    </message>
    <message>
        <source>Write the DaemonSet&apos;s revisions, diffs, rollouts and actions as Markdown, HTML or JSON</source>
        <translation>Revisionen, Diffs, Rollouts und Aktionen des DaemonSets als Markdown, HTML oder JSON schreiben</translation>
    </message>
    <message>
        <source>Export Revision &amp;Diff…</source>
        <translation>Revisions-&amp;Diff exportieren…</translation>
    </message>
    <message>
        <source>Write the two revisions of the Diff tab as a unified diff (git apply, patch)</source>
        <translation>Die beiden Revisionen des Diff-Tabs als Unified Diff schreiben (git apply, patch)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Roll Back to Previous Revision…</source>
        <translation>Auf vorherige Revision &amp;zurückrollen…</translation>
    </message>
    <message>
        <source>Roll Back</source>
        <translation>Zurückrollen</translation>
    </message>
    <message>
        <source>kubectl rollout undo: preview and roll back to the previous revision</source>
        <translation>kubectl rollout undo: Vorschau und Rollback auf die vorherige Revision</translation>
    </message>
    <message>
        <source>Roll Back to &amp;Selected Revision…</source>
        <translation>Auf &amp;ausgewählte Revision zurückrollen…</translation>
    </message>
    <message>
        <source>kubectl rollout undo --to-revision: the revision selected in the timeline</source>
        <translation>kubectl rollout undo --to-revision: die in der Zeitleiste ausgewählte Revision</translation>
    </message>
    <message>
        <source>&amp;Pause Rollout</source>
        <translation>Rollout &amp;pausieren</translation>
    </message>
    <message>
        <source>Switch the update strategy to OnDelete and save the current one</source>
        <translation>Die Update-Strategie auf OnDelete umstellen und die aktuelle sichern</translation>
    </message>
    <message>
        <source>Res&amp;ume Rollout</source>
        <translation>Rollout &amp;fortsetzen</translation>
    </message>
    <message>
        <source>Restore the saved update strategy</source>
        <translation>Die gesicherte Update-Strategie wiederherstellen</translation>
    </message>
    <message>
        <source>&amp;Run Clock</source>
        <translation>Uhr &amp;starten</translation>
    </message>
    <message>
        <source>Run or stop the simulated cluster&apos;s virtual clock</source>
        <translation>Die virtuelle Uhr des simulierten Clusters starten oder anhalten</translation>
    </message>
    <message>
        <source>S&amp;tep 5 Seconds</source>
        <translation>5 Sekunden &amp;vorspulen</translation>
    </message>
    <message>
        <source>Advance the virtual clock by 5 seconds</source>
        <translation>Die virtuelle Uhr um 5 Sekunden vorstellen</translation>
    </message>
    <message>
        <source>Step 1 &amp;Minute</source>
        <translation>1 &amp;Minute vorspulen</translation>
    </message>
    <message>
        <source>&amp;Inject Fault on Node…</source>
        <translation>Störung auf Node &amp;auslösen…</translation>
    </message>
    <message>
        <source>Make a node NotReady, unreachable, or misbehave on its next restart</source>
        <translation>Einen Node NotReady oder unerreichbar machen, oder beim nächsten Neustart fehlschlagen lassen</translation>
    </message>
    <message>
        <source>&amp;Timeline</source>
        <translation>&amp;Zeitleiste</translation>
    </message>
    <message>
        <source>&amp;Nodes</source>
        <translation>&amp;Nodes</translation>
    </message>
    <message>
        <source>&amp;Diff</source>
        <translation>&amp;Diff</translation>
    </message>
    <message>
        <source>&amp;Events</source>
        <translation>&amp;Events</translation>
    </message>
    <message>
        <source>&amp;Progress</source>
        <translation>&amp;Fortschritt</translation>
    </message>
    <message>
        <source>Find &amp;DaemonSet</source>
        <translation>&amp;DaemonSet suchen</translation>
    </message>
    <message>
        <source>Go to E&amp;xplorer</source>
        <translation>Zum E&amp;xplorer</translation>
    </message>
    <message>
        <source>&amp;About Daemonscope</source>
        <translation>&amp;Über Daemonscope</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Rollout</source>
        <translation>&amp;Rollout</translation>
    </message>
    <message>
        <source>&amp;Simulation</source>
        <translation>&amp;Simulation</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>Werkzeugleiste</translation>
    </message>
    <message>
        <source>Clock speed</source>
        <translation>Uhrgeschwindigkeit</translation>
    </message>
    <message>
        <source>Virtual clock speed (Alt+1 … Alt+4)</source>
        <translation>Geschwindigkeit der virtuellen Uhr (Alt+1 … Alt+4)</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>Backend</translation>
    </message>
    <message>
        <source>Virtual clock</source>
        <translation>Virtuelle Uhr</translation>
    </message>
    <message>
        <source>Pause &amp;Clock</source>
        <translation>Uhr an&amp;halten</translation>
    </message>
    <message>
        <source>no cluster</source>
        <translation>kein Cluster</translation>
    </message>
    <message>
        <source> — connected</source>
        <translation> — verbunden</translation>
    </message>
    <message>
        <source> — disconnected</source>
        <translation> — getrennt</translation>
    </message>
    <message numerus="yes">
        <source> · %n node(s)</source>
        <translation>
            <numerusform> · %n Node</numerusform>
            <numerusform> · %n Nodes</numerusform>
        </translation>
    </message>
    <message>
        <source>Virtual time %1</source>
        <translation>Virtuelle Zeit %1</translation>
    </message>
    <message>
        <source>Running at %1×</source>
        <translation>Läuft mit %1×</translation>
    </message>
    <message>
        <source>Clock stopped</source>
        <translation>Uhr angehalten</translation>
    </message>
    <message>
        <source>Last update %1</source>
        <translation>Letzte Aktualisierung %1</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>Lade %1…</translation>
    </message>
    <message>
        <source>Open Scenario</source>
        <translation>Szenario öffnen</translation>
    </message>
    <message>
        <source>Scenarios (*.yaml *.yml);;All files (*)</source>
        <translation>Szenarien (*.yaml *.yml);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Rollback of %1</source>
        <translation>Rollback von %1</translation>
    </message>
    <message>
        <source>Pause of %1</source>
        <translation>Pausieren von %1</translation>
    </message>
    <message>
        <source>Resume of %1</source>
        <translation>Fortsetzen von %1</translation>
    </message>
    <message>
        <source>Loading %1</source>
        <translation>Laden von %1</translation>
    </message>
    <message>
        <source>Fault on %1</source>
        <translation>Störung auf %1</translation>
    </message>
    <message>
        <source>Upgrade %1</source>
        <translation>Upgrade %1</translation>
    </message>
    <message>
        <source>Connecting to %1</source>
        <translation>Verbindung zu %1</translation>
    </message>
    <message>
        <source>Clock</source>
        <translation>Uhr</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Cannot Open Scenario</source>
        <translation>Szenario kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>Export History Report</source>
        <translation>Verlaufsbericht exportieren</translation>
    </message>
    <message>
        <source>Export Revision Diff</source>
        <translation>Revisions-Diff exportieren</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>HTML page (*.html)</source>
        <translation>HTML-Seite (*.html)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Unified diff (*.diff *.patch);;All files (*)</source>
        <translation>Unified Diff (*.diff *.patch);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>About Daemonscope</source>
        <translation>Über Daemonscope</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Daemonscope %1&lt;/h3&gt;&lt;p&gt;A desktop console for Kubernetes DaemonSet rollouts: revision history, pod-to-revision map, template diffs, rollback with preview, pause and resume.&lt;/p&gt;&lt;p&gt;The embedded cluster is a deterministic simulation of the DaemonSet controller; every action uses the same API calls kubectl makes.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Daemonscope %1&lt;/h3&gt;&lt;p&gt;Eine Desktop-Konsole für Rollouts von Kubernetes-DaemonSets: Revisionsverlauf, Zuordnung von Pods zu Revisionen, Template-Diffs, Rollback mit Vorschau, Pausieren und Fortsetzen.&lt;/p&gt;&lt;p&gt;Der eingebettete Cluster ist eine deterministische Simulation des DaemonSet-Controllers; jede Aktion verwendet dieselben API-Aufrufe wie kubectl.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Node upgrade</source>
        <translation>Node-Upgrade</translation>
    </message>
    <message>
        <source>Start Node &amp;Upgrade…</source>
        <translation>Node-&amp;Upgrade starten…</translation>
    </message>
    <message>
        <source>Upgrade the node agents a few nodes at a time, with a pre-flight report</source>
        <translation>Die Node-Agents jeweils auf wenigen Nodes aktualisieren, mit Vorabprüfung</translation>
    </message>
    <message>
        <source>Loading scenario…</source>
        <translation>Szenario wird geladen …</translation>
    </message>
    <message>
        <source>Loading %1 starts the simulation again from its first step.</source>
        <translation>Das Laden von %1 startet die Simulation wieder mit ihrem ersten Schritt.</translation>
    </message>
    <message numerus="yes">
        <source>%n action(s) taken since the scenario was loaded (rollbacks, pauses, faults, upgrade controls) will be lost.</source>
        <translation>
            <numerusform>%n Aktion seit dem Laden des Szenarios (Rollbacks, Pausen, Fehler, Upgrade-Steuerung) geht verloren.</numerusform>
            <numerusform>%n Aktionen seit dem Laden des Szenarios (Rollbacks, Pausen, Fehler, Upgrade-Steuerung) gehen verloren.</numerusform>
        </translation>
    </message>
    <message>
        <source>The running node upgrade %1 will be discarded.</source>
        <translation>Das laufende Knoten-Upgrade %1 wird verworfen.</translation>
    </message>
    <message>
        <source>Discard This Run?</source>
        <translation>Diesen Lauf verwerfen?</translation>
    </message>
    <message>
        <source>&amp;Reload and Discard</source>
        <translation>&amp;Neu laden und verwerfen</translation>
    </message>
    <message>
        <source>&amp;Go To…</source>
        <translation>Springen &amp;zu…</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>Upgrade</source>
        <translation>Upgrade</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>Ready</translation>
    </message>
    <message>
        <source>NotReady</source>
        <translation>NotReady</translation>
    </message>
    <message>
        <source>cordoned</source>
        <translation>gesperrt</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>Node</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Return or Down in Find DaemonSet</source>
        <translation>Eingabe oder Pfeil ab in „DaemonSet suchen“</translation>
    </message>
    <message>
        <source>Go to the first DaemonSet shown</source>
        <translation>Zum ersten angezeigten DaemonSet</translation>
    </message>
    <message>
        <source>Tab · Shift+Tab</source>
        <translation>Tab · Umschalt+Tab</translation>
    </message>
    <message>
        <source>Next or previous pane</source>
        <translation>Nächster oder vorheriger Bereich</translation>
    </message>
    <message>
        <source>Arrows, Page Up/Down</source>
        <translation>Pfeiltasten, Bild auf/ab</translation>
    </message>
    <message>
        <source>Move in a list, a table or the node map</source>
        <translation>In einer Liste, Tabelle oder der Node-Karte bewegen</translation>
    </message>
    <message>
        <source>Escape</source>
        <translation>Esc</translation>
    </message>
    <message>
        <source>Close a dialog (its safe choice)</source>
        <translation>Dialog schließen (die sichere Wahl)</translation>
    </message>
    <message>
        <source>Roll Back %1</source>
        <translation>%1 zurückrollen</translation>
    </message>
    <message>
        <source>Open the rollback of %1?</source>
        <translation>Rollback von %1 öffnen?</translation>
    </message>
    <message>
        <source>&amp;Continue</source>
        <translation>&amp;Weiter</translation>
    </message>
    <message>
        <source>Pause %1</source>
        <translation>%1 pausieren</translation>
    </message>
    <message>
        <source>Pause the rollout of %1? Its update strategy is switched to OnDelete.</source>
        <translation>Rollout von %1 pausieren? Seine Update-Strategie wird auf OnDelete umgestellt.</translation>
    </message>
    <message>
        <source>Set image on %1</source>
        <translation>Image setzen für %1</translation>
    </message>
    <message>
        <source>Restart of %1</source>
        <translation>Neustart von %1</translation>
    </message>
    <message>
        <source>Update strategy of %1</source>
        <translation>Update-Strategie von %1</translation>
    </message>
    <message>
        <source>Cordon of %1</source>
        <translation>Sperren von %1</translation>
    </message>
    <message>
        <source>Uncordon of %1</source>
        <translation>Entsperren von %1</translation>
    </message>
    <message>
        <source>Drain of %1</source>
        <translation>Drain von %1</translation>
    </message>
    <message>
        <source>&amp;Production Contexts…</source>
        <translation>&amp;Produktionskontexte…</translation>
    </message>
    <message>
        <source>The pattern that marks a live context as production (its actions ask for the name)</source>
        <translation>Das Muster, das einen Live-Kontext als Produktion kennzeichnet (seine Aktionen fragen nach dem Namen)</translation>
    </message>
    <message>
        <source>This console drives the node upgrade %1, with nodes in flight: %2.

Closing the console stops the upgrade. The nodes stay cordoned and drained until a controller takes the Lease %3 over: an in-cluster daemonscope controller at once, or this console when it is opened again.</source>
        <translation>Diese Konsole steuert das Node-Upgrade %1, Nodes in Arbeit: %2.

Wenn Sie die Konsole schließen, hält das Upgrade an. Die Nodes bleiben gesperrt und geräumt, bis ein Controller den Lease %3 übernimmt: ein daemonscope controller im Cluster sofort, oder diese Konsole, wenn sie wieder geöffnet wird.</translation>
    </message>
    <message>
        <source>Quit While Upgrading Nodes</source>
        <translation>Beenden während des Node-Upgrades</translation>
    </message>
    <message>
        <source>Quit and Stop the Upgrade</source>
        <translation>Beenden und Upgrade anhalten</translation>
    </message>
</context>
<context>
    <name>gui::ManagedByLabel</name>
    <message>
        <source>Managed by another tool</source>
        <translation>Von einem anderen Werkzeug verwaltet</translation>
    </message>
    <message>
        <source>&lt;b&gt;Another tool manages this DaemonSet.&lt;/b&gt;&lt;br&gt;%1</source>
        <translation>&lt;b&gt;Ein anderes Werkzeug verwaltet dieses DaemonSet.&lt;/b&gt;&lt;br&gt;%1</translation>
    </message>
</context>
<context>
    <name>gui::NodeActions</name>
    <message>
        <source>&amp;Cordon</source>
        <translation>&amp;Sperren</translation>
    </message>
    <message>
        <source>%1 is cordoned already</source>
        <translation>%1 ist bereits gesperrt</translation>
    </message>
    <message>
        <source>Mark %1 unschedulable: no new pods are placed there</source>
        <translation>%1 als nicht einplanbar markieren: Dort werden keine neuen Pods platziert</translation>
    </message>
    <message>
        <source>&amp;Uncordon</source>
        <translation>&amp;Entsperren</translation>
    </message>
    <message>
        <source>%1 is schedulable</source>
        <translation>%1 ist einplanbar</translation>
    </message>
    <message>
        <source>Mark %1 schedulable again</source>
        <translation>%1 wieder als einplanbar markieren</translation>
    </message>
    <message>
        <source>&amp;Drain…</source>
        <translation>&amp;Drain…</translation>
    </message>
    <message>
        <source>Cordon %1 and evict its pods (asks first)</source>
        <translation>%1 sperren und seine Pods verdrängen (mit Rückfrage)</translation>
    </message>
    <message>
        <source>Cordon %1</source>
        <translation>%1 sperren</translation>
    </message>
    <message>
        <source>Uncordon %1</source>
        <translation>%1 entsperren</translation>
    </message>
    <message>
        <source>Mark node %1 unschedulable?</source>
        <translation>Node %1 als nicht einplanbar markieren?</translation>
    </message>
    <message>
        <source>Mark node %1 schedulable again?</source>
        <translation>Node %1 wieder als einplanbar markieren?</translation>
    </message>
    <message>
        <source>Details and &amp;Logs…</source>
        <translation>Details und &amp;Logs…</translation>
    </message>
    <message>
        <source>The node, the DaemonSet&apos;s pod on it and the pod&apos;s logs (Return on the tile)</source>
        <translation>Der Node, der Pod des DaemonSets darauf und die Logs des Pods (Eingabetaste auf der Kachel)</translation>
    </message>
</context>
<context>
    <name>gui::NodeMapLegend</name>
    <message>
        <source>Node map legend</source>
        <translation>Legende der Node-Karte</translation>
    </message>
    <message numerus="yes">
        <source>revision %1: %n pods</source>
        <translation>
            <numerusform>Revision %1: %n Pod</numerusform>
            <numerusform>Revision %1: %n Pods</numerusform>
        </translation>
    </message>
    <message>
        <source>rev %1 · %2</source>
        <translation>Rev. %1 · %2</translation>
    </message>
    <message numerus="yes">
        <source>Revision %1: %n pods. Click to highlight its nodes.</source>
        <translation>
            <numerusform>Revision %1: %n Pod. Klicken hebt seinen Node hervor.</numerusform>
            <numerusform>Revision %1: %n Pods. Klicken hebt ihre Nodes hervor.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Revision %1 (%2): %n pods. Click to highlight its nodes.</source>
        <translation>
            <numerusform>Revision %1 (%2): %n Pod. Klicken hebt seinen Node hervor.</numerusform>
            <numerusform>Revision %1 (%2): %n Pods. Klicken hebt ihre Nodes hervor.</numerusform>
        </translation>
    </message>
    <message>
        <source>node not ready</source>
        <translation>Node nicht bereit</translation>
    </message>
    <message>
        <source>cordoned</source>
        <translation>gesperrt</translation>
    </message>
</context>
<context>
    <name>gui::NodeMapView</name>
    <message>
        <source>Node map</source>
        <translation>Node-Karte</translation>
    </message>
    <message>
        <source>One tile per node, grouped by zone, coloured by the revision of its pod</source>
        <translation>Eine Kachel pro Node, nach Zone gruppiert, gefärbt nach der Revision seines Pods</translation>
    </message>
    <message>
        <source>(no zone)</source>
        <translation>(keine Zone)</translation>
    </message>
    <message>
        <source>%1 nodes</source>
        <translation>%1 Nodes</translation>
    </message>
    <message numerus="yes">
        <source>%n nodes in %1 zones</source>
        <translation>
            <numerusform>%n Node in %1 Zonen</numerusform>
            <numerusform>%n Nodes in %1 Zonen</numerusform>
        </translation>
    </message>
    <message>
        <source>Node %1, revision %2, %3</source>
        <translation>Node %1, Revision %2, %3</translation>
    </message>
    <message>
        <source>Node %1, %2</source>
        <translation>Node %1, %2</translation>
    </message>
    <message>
        <source>No nodes match</source>
        <translation>Kein Node passt</translation>
    </message>
    <message>
        <source>No nodes</source>
        <translation>Keine Nodes</translation>
    </message>
</context>
<context>
    <name>gui::NodeTiles</name>
    <message>
        <source> — fault: %1</source>
        <translation> — Störung: %1</translation>
    </message>
</context>
<context>
    <name>gui::NodesTab</name>
    <message>
        <source>All pod states</source>
        <translation>Alle Pod-Zustände</translation>
    </message>
    <message>
        <source>Problems (not ready, terminating, missing)</source>
        <translation>Probleme (nicht bereit, wird beendet, fehlt)</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>Bereit</translation>
    </message>
    <message>
        <source>Not ready</source>
        <translation>Nicht bereit</translation>
    </message>
    <message>
        <source>Terminating</source>
        <translation>Wird beendet</translation>
    </message>
    <message>
        <source>Missing</source>
        <translation>Fehlt</translation>
    </message>
    <message>
        <source>Surging</source>
        <translation>Surge</translation>
    </message>
    <message>
        <source>Not scheduled</source>
        <translation>Nicht eingeplant</translation>
    </message>
    <message>
        <source>Filter nodes: name or label=value</source>
        <translation>Nodes filtern: Name oder label=wert</translation>
    </message>
    <message>
        <source>Node filter</source>
        <translation>Node-Filter</translation>
    </message>
    <message>
        <source>Space-separated terms, all must match: a part of the node name, or key=value for a label</source>
        <translation>Durch Leerzeichen getrennte Begriffe, alle müssen passen: ein Teil des Node-Namens oder schlüssel=wert für ein Label</translation>
    </message>
    <message>
        <source>&amp;Filter:</source>
        <translation>&amp;Filter:</translation>
    </message>
    <message>
        <source>Pod state filter</source>
        <translation>Pod-Zustandsfilter</translation>
    </message>
    <message>
        <source>&amp;State:</source>
        <translation>&amp;Zustand:</translation>
    </message>
    <message>
        <source>Shown nodes</source>
        <translation>Angezeigte Nodes</translation>
    </message>
    <message>
        <source>Node map</source>
        <translation>Node-Karte</translation>
    </message>
    <message>
        <source>Current node</source>
        <translation>Aktueller Node</translation>
    </message>
    <message>
        <source>%1 of %2 nodes</source>
        <translation>%1 von %2 Nodes</translation>
    </message>
    <message>
        <source>Behind (any cause)</source>
        <translation>Im Rückstand (jeder Grund)</translation>
    </message>
    <message>
        <source>Behind: %1</source>
        <translation>Im Rückstand: %1</translation>
    </message>
    <message>
        <source>Nodes behind by cause</source>
        <translation>Nodes im Rückstand nach Grund</translation>
    </message>
    <message numerus="yes">
        <source>Why %n node(s) are behind: %1</source>
        <translation>
            <numerusform>Warum %n Node im Rückstand ist: %1</numerusform>
            <numerusform>Warum %n Nodes im Rückstand sind: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Click a tile (or use the arrow keys) to see its node and pod; Return or a double click opens its details and logs, a right click (or the Menu key) its actions.</source>
        <translation>Klicken Sie auf eine Kachel (oder nutzen Sie die Pfeiltasten), um ihren Node und Pod zu sehen; die Eingabetaste oder ein Doppelklick öffnet Details und Logs, ein Rechtsklick (oder die Menütaste) die Aktionen.</translation>
    </message>
</context>
<context>
    <name>gui::ObjectDetailDialog</name>
    <message>
        <source>Node %1</source>
        <translation>Node %1</translation>
    </message>
    <message>
        <source>%1 on node %2</source>
        <translation>%1 auf Node %2</translation>
    </message>
    <message>
        <source>&amp;Pod</source>
        <translation>&amp;Pod</translation>
    </message>
    <message>
        <source>&amp;Node</source>
        <translation>&amp;Node</translation>
    </message>
    <message>
        <source>&amp;Container:</source>
        <translation>&amp;Container:</translation>
    </message>
    <message>
        <source>P&amp;revious</source>
        <translation>&amp;Vorherige</translation>
    </message>
    <message>
        <source>The lines of the container&apos;s previous (terminated) instance</source>
        <translation>Die Zeilen der vorherigen (beendeten) Instanz des Containers</translation>
    </message>
    <message>
        <source>&amp;Follow</source>
        <translation>&amp;Folgen</translation>
    </message>
    <message>
        <source>Keep streaming new lines</source>
        <translation>Neue Zeilen laufend nachladen</translation>
    </message>
    <message>
        <source>&amp;Tail:</source>
        <translation>Nur l&amp;etzte:</translation>
    </message>
    <message>
        <source> lines</source>
        <translation> Zeilen</translation>
    </message>
    <message>
        <source>Re&amp;load</source>
        <translation>Neu l&amp;aden</translation>
    </message>
    <message>
        <source>C&amp;opy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>&amp;Save…</source>
        <translation>&amp;Speichern…</translation>
    </message>
    <message>
        <source>&amp;Logs</source>
        <translation>&amp;Logs</translation>
    </message>
    <message>
        <source>R&amp;efresh</source>
        <translation>Akt&amp;ualisieren</translation>
    </message>
    <message>
        <source>Node &lt;b&gt;%1&lt;/b&gt;: the DaemonSet %2 has no pod on it.</source>
        <translation>Node &lt;b&gt;%1&lt;/b&gt;: Das DaemonSet %2 hat dort keinen Pod.</translation>
    </message>
    <message>
        <source>Pod &lt;b&gt;%1/%2&lt;/b&gt; of %3 on node &lt;b&gt;%4&lt;/b&gt;</source>
        <translation>Pod &lt;b&gt;%1/%2&lt;/b&gt; von %3 auf Node &lt;b&gt;%4&lt;/b&gt;</translation>
    </message>
    <message>
        <source>No pod of %1 on this node.</source>
        <translation>Kein Pod von %1 auf diesem Node.</translation>
    </message>
    <message>
        <source>Cannot read %1 %2: %3</source>
        <translation>%1 %2 kann nicht gelesen werden: %3</translation>
    </message>
    <message>
        <source>Following…</source>
        <translation>Folge…</translation>
    </message>
    <message>
        <source>Reading…</source>
        <translation>Lese…</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
    <message numerus="yes">
        <source>%n line(s); ended: %1</source>
        <translation>
            <numerusform>%n Zeile; beendet: %1</numerusform>
            <numerusform>%n Zeilen; beendet: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n Zeile</numerusform>
            <numerusform>%n Zeilen</numerusform>
        </translation>
    </message>
    <message>
        <source>Save Logs</source>
        <translation>Logs speichern</translation>
    </message>
    <message>
        <source>Log files (*.log *.txt);;All files (*)</source>
        <translation>Logdateien (*.log *.txt);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
</context>
<context>
    <name>gui::PausedBanner</name>
    <message>
        <source>Rollout paused</source>
        <translation>Rollout pausiert</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rollout paused:&lt;/b&gt; the update strategy is switched to OnDelete and the previous strategy saved in an annotation. Pods are replaced only when deleted; new nodes still get pods from the current template.</source>
        <translation>&lt;b&gt;Rollout pausiert:&lt;/b&gt; Die Update-Strategie ist auf OnDelete umgestellt und die vorherige in einer Annotation gesichert. Pods werden nur ersetzt, wenn sie gelöscht werden; neue Nodes bekommen weiterhin Pods aus dem aktuellen Template.</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>&amp;Fortsetzen</translation>
    </message>
    <message>
        <source>Resume rollout</source>
        <translation>Rollout fortsetzen</translation>
    </message>
    <message>
        <source>Restore the saved update strategy</source>
        <translation>Die gesicherte Update-Strategie wiederherstellen</translation>
    </message>
    <message>
        <source>Saved strategy: %1</source>
        <translation>Gesicherte Strategie: %1</translation>
    </message>
</context>
<context>
    <name>gui::ProductionBar</name>
    <message>
        <source>Production context</source>
        <translation>Produktionskontext</translation>
    </message>
    <message>
        <source>Production context %1 — actions ask for the name</source>
        <translation>Produktionskontext %1 — Aktionen fragen nach dem Namen</translation>
    </message>
    <message>
        <source>The context or cluster name matches the production pattern &quot;%1&quot; (Settings → Production Contexts…): every destructive action asks you to type the object&apos;s name.</source>
        <translation>Der Kontext- oder Cluster-Name passt zum Produktionsmuster „%1“ (Einstellungen → Produktionskontexte…): Jede destruktive Aktion verlangt, dass Sie den Namen des Objekts eingeben.</translation>
    </message>
    <message>
        <source>Production Contexts</source>
        <translation>Produktionskontexte</translation>
    </message>
    <message>
        <source>A live context whose kubeconfig context or cluster name matches this regular expression (case-insensitive) is treated as production: a red bar shows it, and every destructive action asks you to type the name of the DaemonSet, node or rollout.</source>
        <translation>Ein Live-Kontext, dessen kubeconfig-Kontext- oder Cluster-Name zu diesem regulären Ausdruck passt (ohne Beachtung der Groß-/Kleinschreibung), gilt als Produktion: Ein roter Balken zeigt das an, und jede destruktive Aktion verlangt, dass Sie den Namen des DaemonSets, Nodes oder Rollouts eingeben.</translation>
    </message>
    <message>
        <source>Production pattern</source>
        <translation>Produktionsmuster</translation>
    </message>
    <message>
        <source>Enter an expression.</source>
        <translation>Geben Sie einen Ausdruck ein.</translation>
    </message>
    <message>
        <source>Not a valid expression: %1</source>
        <translation>Kein gültiger Ausdruck: %1</translation>
    </message>
    <message>
        <source>The current context %1 matches: it is treated as production.</source>
        <translation>Der aktuelle Kontext %1 passt: Er gilt als Produktion.</translation>
    </message>
    <message>
        <source>The current context %1 does not match.</source>
        <translation>Der aktuelle Kontext %1 passt nicht.</translation>
    </message>
</context>
<context>
    <name>gui::ProgressTab</name>
    <message>
        <source>Desired</source>
        <translation>Gewünscht</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>Aktualisiert</translation>
    </message>
    <message>
        <source>Available</source>
        <translation>Verfügbar</translation>
    </message>
    <message>
        <source>Unavailable</source>
        <translation>Nicht verfügbar</translation>
    </message>
    <message>
        <source>maxUnavailable budget</source>
        <translation>maxUnavailable-Budget</translation>
    </message>
    <message>
        <source>Rollout headline</source>
        <translation>Rollout-Zusammenfassung</translation>
    </message>
    <message>
        <source>Estimated time left</source>
        <translation>Geschätzte Restzeit</translation>
    </message>
    <message>
        <source>Seconds since rollout start</source>
        <translation>Sekunden seit Rollout-Beginn</translation>
    </message>
    <message>
        <source>Pods</source>
        <translation>Pods</translation>
    </message>
    <message>
        <source>Rollout progress chart</source>
        <translation>Diagramm des Rollout-Fortschritts</translation>
    </message>
    <message>
        <source>ETA: %1</source>
        <translation>Fertig in: %1</translation>
    </message>
    <message>
        <source>Desired %1, updated %2, available %3, unavailable %4, maxUnavailable budget %5</source>
        <translation>Gewünscht %1, aktualisiert %2, verfügbar %3, nicht verfügbar %4, maxUnavailable-Budget %5</translation>
    </message>
    <message>
        <source>No samples yet</source>
        <translation>Noch keine Messwerte</translation>
    </message>
    <message>
        <source>Seconds since first sample</source>
        <translation>Sekunden seit dem ersten Messwert</translation>
    </message>
</context>
<context>
    <name>gui::RollbackDialog</name>
    <message>
        <source>Roll Back %1</source>
        <translation>%1 zurückrollen</translation>
    </message>
    <message>
        <source>Target revision</source>
        <translation>Zielrevision</translation>
    </message>
    <message>
        <source>Roll back &amp;to:</source>
        <translation>Zurückrollen &amp;auf:</translation>
    </message>
    <message>
        <source>Rollback summary</source>
        <translation>Rollback-Zusammenfassung</translation>
    </message>
    <message>
        <source>Rollback warning</source>
        <translation>Rollback-Warnung</translation>
    </message>
    <message>
        <source>Nodes affected</source>
        <translation>Betroffene Nodes</translation>
    </message>
    <message>
        <source>Estimated duration</source>
        <translation>Geschätzte Dauer</translation>
    </message>
    <message>
        <source>Current template against the target revision</source>
        <translation>Aktuelles Template gegen die Zielrevision</translation>
    </message>
    <message>
        <source>Rollback outcome</source>
        <translation>Rollback-Ergebnis</translation>
    </message>
    <message>
        <source>&amp;Roll Back</source>
        <translation>&amp;Zurückrollen</translation>
    </message>
    <message>
        <source>Previous revision (kubectl rollout undo)</source>
        <translation>Vorherige Revision (kubectl rollout undo)</translation>
    </message>
    <message>
        <source>Revision %1 · %2 · %3%4</source>
        <translation>Revision %1 · %2 · %3%4</translation>
    </message>
    <message>
        <source> (current)</source>
        <translation> (aktuell)</translation>
    </message>
    <message>
        <source>kubectl would refuse this rollback.</source>
        <translation>kubectl würde diesen Rollback ablehnen.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Cannot roll back:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Rollback nicht möglich:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>Roll back &lt;b&gt;%1&lt;/b&gt; from revision %2 to revision %3 (%4, %5).</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; von Revision %2 auf Revision %3 zurückrollen (%4, %5).</translation>
    </message>
    <message>
        <source>&lt;b&gt;Nothing to do:&lt;/b&gt; %1. kubectl would not change the DaemonSet.</source>
        <translation>&lt;b&gt;Nichts zu tun:&lt;/b&gt; %1. kubectl würde das DaemonSet nicht ändern.</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) will get a new pod</source>
        <translation>
            <numerusform>%n Node bekommt einen neuen Pod</numerusform>
            <numerusform>%n Nodes bekommen einen neuen Pod</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n replaced</source>
        <translation>
            <numerusform>%n ersetzt</numerusform>
            <numerusform>%n ersetzt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n without a pod yet</source>
        <translation>
            <numerusform>%n noch ohne Pod</numerusform>
            <numerusform>%n noch ohne Pod</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n already run(s) the target revision.</source>
        <translation>
            <numerusform>%n läuft bereits auf der Zielrevision.</numerusform>
            <numerusform>%n laufen bereits auf der Zielrevision.</numerusform>
        </translation>
    </message>
    <message>
        <source>Estimated duration: none — %1</source>
        <translation>Geschätzte Dauer: keine — %1</translation>
    </message>
    <message>
        <source>Estimated duration: &lt;b&gt;%1&lt;/b&gt; — %2</source>
        <translation>Geschätzte Dauer: &lt;b&gt;%1&lt;/b&gt; — %2</translation>
    </message>
    <message>
        <source>No pod is replaced.</source>
        <translation>Kein Pod wird ersetzt.</translation>
    </message>
    <message>
        <source>current (revision %1)</source>
        <translation>aktuell (Revision %1)</translation>
    </message>
    <message>
        <source>revision %1 (target)</source>
        <translation>Revision %1 (Ziel)</translation>
    </message>
    <message>
        <source>&amp;Roll Back Anyway</source>
        <translation>Trotzdem &amp;zurückrollen</translation>
    </message>
    <message>
        <source>Rolling back…</source>
        <translation>Rollback läuft…</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1:&lt;/b&gt; %2</source>
        <translation>&lt;b&gt;%1:&lt;/b&gt; %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rollback failed:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Rollback fehlgeschlagen:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>&amp;Schließen</translation>
    </message>
</context>
<context>
    <name>gui::RolloutHistoryView</name>
    <message>
        <source>%1 ago</source>
        <translation>vor %1</translation>
    </message>
    <message>
        <source>Rollouts and actions</source>
        <translation>Rollouts und Aktionen</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Wann</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Ereignis</translation>
    </message>
    <message>
        <source>Revisions</source>
        <translation>Revisionen</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>Nodes</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>By</source>
        <translation>Von</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Rollback</source>
        <translation>Rollback</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausieren</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Load scenario</source>
        <translation>Szenario laden</translation>
    </message>
    <message>
        <source>Clock speed</source>
        <translation>Uhrgeschwindigkeit</translation>
    </message>
    <message>
        <source>Clock step</source>
        <translation>Uhr vorgestellt</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <source>Fault</source>
        <translation>Störung</translation>
    </message>
    <message>
        <source>Node upgrade started</source>
        <translation>Node-Upgrade gestartet</translation>
    </message>
    <message>
        <source>Node upgrade control</source>
        <translation>Node-Upgrade-Steuerung</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>Verbinden</translation>
    </message>
    <message>
        <source>Set image</source>
        <translation>Image setzen</translation>
    </message>
    <message>
        <source>Restart</source>
        <translation>Neustart</translation>
    </message>
    <message>
        <source>Update strategy</source>
        <translation>Update-Strategie</translation>
    </message>
    <message>
        <source>Cordon</source>
        <translation>Sperren</translation>
    </message>
    <message>
        <source>Uncordon</source>
        <translation>Entsperren</translation>
    </message>
    <message>
        <source>Drain</source>
        <translation>Drain</translation>
    </message>
    <message>
        <source>%1 (then %2)</source>
        <translation>%1 (damals %2)</translation>
    </message>
    <message>
        <source>Rollout</source>
        <translation>Rollout</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>%1 of %2 replaced</source>
        <translation>%1 von %2 ersetzt</translation>
    </message>
    <message>
        <source>complete</source>
        <translation>abgeschlossen</translation>
    </message>
    <message>
        <source>superseded by revision %1</source>
        <translation>abgelöst durch Revision %1</translation>
    </message>
    <message>
        <source>superseded</source>
        <translation>abgelöst</translation>
    </message>
    <message>
        <source>%1 so far</source>
        <translation>bisher %1</translation>
    </message>
    <message>
        <source>in progress</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>%1 per node on average</source>
        <translation>durchschnittlich %1 pro Node</translation>
    </message>
    <message>
        <source>No rollout observed and no action taken since the console started watching.</source>
        <translation>Seit die Konsole beobachtet, wurde kein Rollout gesehen und keine Aktion ausgeführt.</translation>
    </message>
</context>
<context>
    <name>gui::ShortcutSheet</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Tasten</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Anywhere</source>
        <translation>Überall</translation>
    </message>
</context>
<context>
    <name>gui::StartRolloutActions</name>
    <message>
        <source>Set &amp;Image…</source>
        <translation>&amp;Image setzen…</translation>
    </message>
    <message>
        <source>kubectl set image: change container images, with a preview</source>
        <translation>kubectl set image: Container-Images ändern, mit Vorschau</translation>
    </message>
    <message>
        <source>Res&amp;tart…</source>
        <translation>&amp;Neu starten…</translation>
    </message>
    <message>
        <source>kubectl rollout restart: replace every pod, with a preview</source>
        <translation>kubectl rollout restart: alle Pods ersetzen, mit Vorschau</translation>
    </message>
    <message>
        <source>Update &amp;Strategy…</source>
        <translation>Update-&amp;Strategie…</translation>
    </message>
    <message>
        <source>Edit maxUnavailable and maxSurge, with a preview</source>
        <translation>maxUnavailable und maxSurge bearbeiten, mit Vorschau</translation>
    </message>
</context>
<context>
    <name>gui::StartRolloutDialog</name>
    <message>
        <source>Set Image of %1</source>
        <translation>Image von %1 setzen</translation>
    </message>
    <message>
        <source>&amp;Set Image</source>
        <translation>&amp;Image setzen</translation>
    </message>
    <message>
        <source>Restart %1</source>
        <translation>%1 neu starten</translation>
    </message>
    <message>
        <source>&amp;Restart</source>
        <translation>&amp;Neu starten</translation>
    </message>
    <message>
        <source>Update Strategy of %1</source>
        <translation>Update-Strategie von %1</translation>
    </message>
    <message>
        <source>&amp;Apply Strategy</source>
        <translation>Strategie &amp;anwenden</translation>
    </message>
    <message>
        <source>Why it cannot be sent</source>
        <translation>Warum es nicht gesendet werden kann</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>Zusammenfassung</translation>
    </message>
    <message>
        <source>Nodes affected</source>
        <translation>Betroffene Nodes</translation>
    </message>
    <message>
        <source>Estimated duration</source>
        <translation>Geschätzte Dauer</translation>
    </message>
    <message>
        <source>Current template against the new one</source>
        <translation>Aktuelles Template gegen das neue</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Image of container %1</source>
        <translation>Image des Containers %1</translation>
    </message>
    <message>
        <source>Current image: %1</source>
        <translation>Aktuelles Image: %1</translation>
    </message>
    <message>
        <source>%1 (init container):</source>
        <translation>%1 (Init-Container):</translation>
    </message>
    <message>
        <source>%1:</source>
        <translation>%1:</translation>
    </message>
    <message>
        <source>a number or a percentage, e.g. 1 or 10%</source>
        <translation>eine Zahl oder ein Prozentsatz, z. B. 1 oder 10%</translation>
    </message>
    <message>
        <source>a number or a percentage, e.g. 0 or 25%</source>
        <translation>eine Zahl oder ein Prozentsatz, z. B. 0 oder 25%</translation>
    </message>
    <message>
        <source>max&amp;Unavailable:</source>
        <translation>max&amp;Unavailable:</translation>
    </message>
    <message>
        <source>max&amp;Surge:</source>
        <translation>max&amp;Surge:</translation>
    </message>
    <message>
        <source>Edit an image to see what would change.</source>
        <translation>Ändern Sie ein Image, um zu sehen, was sich ändern würde.</translation>
    </message>
    <message>
        <source>This cannot be sent as it is.</source>
        <translation>So kann dies nicht gesendet werden.</translation>
    </message>
    <message>
        <source>Nothing changes: the containers already use these images.</source>
        <translation>Nichts ändert sich: Die Container verwenden diese Images bereits.</translation>
    </message>
    <message>
        <source>Set the image of &lt;b&gt;%1&lt;/b&gt;: the template goes back to revision %2.</source>
        <translation>Image von &lt;b&gt;%1&lt;/b&gt; setzen: Das Template kehrt zu Revision %2 zurück.</translation>
    </message>
    <message>
        <source>Set the image of &lt;b&gt;%1&lt;/b&gt;: a new revision after revision %2.</source>
        <translation>Image von &lt;b&gt;%1&lt;/b&gt; setzen: eine neue Revision nach Revision %2.</translation>
    </message>
    <message>
        <source>Restart &lt;b&gt;%1&lt;/b&gt;: the template gets the annotation kubectl.kubernetes.io/restartedAt, a new revision after revision %2, and every pod is replaced.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; neu starten: Das Template erhält die Annotation kubectl.kubernetes.io/restartedAt, eine neue Revision nach Revision %2, und jeder Pod wird ersetzt.</translation>
    </message>
    <message>
        <source>Nothing changes: the strategy already has these values.</source>
        <translation>Nichts ändert sich: Die Strategie hat diese Werte bereits.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; is paused: the saved strategy is edited and it stays paused. When resumed it rolls out %2.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; ist pausiert: Die gespeicherte Strategie wird geändert, und es bleibt pausiert. Nach dem Fortsetzen rollt es %2 aus.</translation>
    </message>
    <message>
        <source>A strategy edit starts no rollout; it changes how the running or next one proceeds: &lt;b&gt;%1&lt;/b&gt;%2.</source>
        <translation>Eine Strategieänderung startet kein Rollout; sie ändert, wie das laufende oder nächste vorgeht: &lt;b&gt;%1&lt;/b&gt;%2.</translation>
    </message>
    <message>
        <source> (now %1)</source>
        <translation> (jetzt %1)</translation>
    </message>
    <message>
        <source>current (revision %1)</source>
        <translation>aktuell (Revision %1)</translation>
    </message>
    <message>
        <source>new template</source>
        <translation>neues Template</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) will get a new pod</source>
        <translation>
            <numerusform>%n Node erhält einen neuen Pod</numerusform>
            <numerusform>%n Nodes erhalten einen neuen Pod</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n already run(s) the target revision.</source>
        <translation>
            <numerusform>%n führt die Zielrevision bereits aus.</numerusform>
            <numerusform>%n führen die Zielrevision bereits aus.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>No new rollout starts. The running rollout has %n node(s) left.</source>
        <translation>
            <numerusform>Kein neues Rollout startet. Dem laufenden Rollout bleibt %n Node.</numerusform>
            <numerusform>Kein neues Rollout startet. Dem laufenden Rollout bleiben %n Nodes.</numerusform>
        </translation>
    </message>
    <message>
        <source>No new rollout starts and no pod is replaced now; the next rollout runs %1.</source>
        <translation>Kein neues Rollout startet und jetzt wird kein Pod ersetzt; das nächste Rollout läuft mit %1.</translation>
    </message>
    <message>
        <source>Estimated duration: none — %1</source>
        <translation>Geschätzte Dauer: keine — %1</translation>
    </message>
    <message>
        <source>Estimated duration: &lt;b&gt;%1&lt;/b&gt; — %2</source>
        <translation>Geschätzte Dauer: &lt;b&gt;%1&lt;/b&gt; — %2</translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation>Wird gesendet…</translation>
    </message>
    <message>
        <source>&lt;b&gt;Done:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Erledigt:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Failed:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Fehlgeschlagen:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>&amp;Schließen</translation>
    </message>
</context>
<context>
    <name>gui::StartUpgradeDialog</name>
    <message>
        <source>Start Node Upgrade</source>
        <translation>Node-Upgrade starten</translation>
    </message>
    <message>
        <source>every node (e.g. node-pool=general)</source>
        <translation>jeder Node (z. B. node-pool=general)</translation>
    </message>
    <message>
        <source>A number or a percentage of the matched nodes (rounded down, at least 1)</source>
        <translation>Eine Anzahl oder ein Prozentsatz der passenden Nodes (abgerundet, mindestens 1)</translation>
    </message>
    <message>
        <source>A controller&apos;s pod is deleted only while more than this share of its replicas is ready</source>
        <translation>Ein Pod eines Controllers wird nur gelöscht, solange mehr als dieser Anteil seiner Replikate bereit ist</translation>
    </message>
    <message>
        <source>Allow (with a Warning)</source>
        <translation>Erlauben (mit Warning)</translation>
    </message>
    <message>
        <source>Block until an admin acts</source>
        <translation>Blockieren, bis ein Admin eingreift</translation>
    </message>
    <message>
        <source>Always delete</source>
        <translation>Immer löschen</translation>
    </message>
    <message>
        <source>Count toward health</source>
        <translation>Zur Gesundheit zählen</translation>
    </message>
    <message>
        <source>After a timeout since marking</source>
        <translation>Nach einer Frist ab der Markierung</translation>
    </message>
    <message>
        <source>Immediately</source>
        <translation>Sofort</translation>
    </message>
    <message>
        <source>Never (wait for an admin)</source>
        <translation>Nie (auf einen Admin warten)</translation>
    </message>
    <message>
        <source>Hold (keep the node cordoned)</source>
        <translation>Halten (Node bleibt gesperrt)</translation>
    </message>
    <message>
        <source>Skip the node</source>
        <translation>Node überspringen</translation>
    </message>
    <message>
        <source>Force the drain</source>
        <translation>Drain erzwingen</translation>
    </message>
    <message>
        <source>One zone at a time</source>
        <translation>Eine Zone nach der anderen</translation>
    </message>
    <message>
        <source>Create paused (observe only)</source>
        <translation>Pausiert anlegen (nur beobachten)</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Target version:</source>
        <translation>&amp;Zielversion:</translation>
    </message>
    <message>
        <source>Node &amp;selector:</source>
        <translation>Node-&amp;Selektor:</translation>
    </message>
    <message>
        <source>&amp;maxUnavailable:</source>
        <translation>&amp;maxUnavailable:</translation>
    </message>
    <message>
        <source>Controller &amp;health threshold:</source>
        <translation>&amp;Gesundheitsschwelle der Controller:</translation>
    </message>
    <message>
        <source>Single-&amp;replica controllers:</source>
        <translation>Controller mit einem &amp;Replikat:</translation>
    </message>
    <message>
        <source>Unready pods:</source>
        <translation>Nicht bereite Pods:</translation>
    </message>
    <message>
        <source>&amp;Unmanaged pods:</source>
        <translation>Nicht &amp;verwaltete Pods:</translation>
    </message>
    <message>
        <source>On &amp;drain timeout:</source>
        <translation>Bei &amp;Drain-Timeout:</translation>
    </message>
    <message>
        <source>Halt after failed nodes:</source>
        <translation>Stopp nach fehlgeschlagenen Nodes:</translation>
    </message>
    <message>
        <source>Timeouts</source>
        <translation>Timeouts</translation>
    </message>
    <message>
        <source>Drain timeout:</source>
        <translation>Drain-Timeout:</translation>
    </message>
    <message>
        <source>Drain stall:</source>
        <translation>Drain-Stillstand:</translation>
    </message>
    <message>
        <source>Return after restart:</source>
        <translation>Rückkehr nach Neustart:</translation>
    </message>
    <message>
        <source>Soak:</source>
        <translation>Beobachtungszeit:</translation>
    </message>
    <message>
        <source>Pre-flight</source>
        <translation>Vorabprüfung</translation>
    </message>
    <message>
        <source>Pre-flight report</source>
        <translation>Bericht der Vorabprüfung</translation>
    </message>
    <message>
        <source>Start Upgrade</source>
        <translation>Upgrade starten</translation>
    </message>
    <message>
        <source>The rollout needs a name.</source>
        <translation>Der Rollout braucht einen Namen.</translation>
    </message>
    <message>
        <source>A rollout named %1 exists: starting updates its spec.</source>
        <translation>Ein Rollout namens %1 existiert bereits: Starten aktualisiert seine Spec.</translation>
    </message>
    <message>
        <source>Invalid: %1</source>
        <translation>Ungültig: %1</translation>
    </message>
    <message>
        <source>Block (the node waits)</source>
        <translation>Block (der Node wartet)</translation>
    </message>
    <message>
        <source>Delete (their data is lost)</source>
        <translation>Delete (ihre Daten gehen verloren)</translation>
    </message>
    <message>
        <source>Pods with &amp;emptyDir data:</source>
        <translation>Pods mit &amp;emptyDir-Daten:</translation>
    </message>
    <message>
        <source>Ask the node&apos;s agent (annotation handshake)</source>
        <translation>Den Agenten des Knotens bitten (Annotations-Handshake)</translation>
    </message>
    <message>
        <source>Run an upgrade Job on the node</source>
        <translation>Einen Upgrade-Job auf dem Knoten ausführen</translation>
    </message>
    <message>
        <source>Another tool restarts or replaces it</source>
        <translation>Ein anderes Werkzeug startet oder ersetzt ihn</translation>
    </message>
    <message>
        <source>Upgrade Job</source>
        <translation>Upgrade-Job</translation>
    </message>
    <message>
        <source>Job template (YAML)</source>
        <translation>Job-Vorlage (YAML)</translation>
    </message>
    <message>
        <source>N&amp;amespace:</source>
        <translation>N&amp;amespace:</translation>
    </message>
    <message>
        <source>&amp;Job template (YAML):</source>
        <translation>&amp;Job-Vorlage (YAML):</translation>
    </message>
    <message>
        <source>Restart on the ne&amp;w version:</source>
        <translation>Neustart auf die neue Versi&amp;on:</translation>
    </message>
</context>
<context>
    <name>gui::TemplateDialog</name>
    <message>
        <source>Pod template YAML</source>
        <translation>Pod-Template als YAML</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
</context>
<context>
    <name>gui::ThemeMenu</name>
    <message>
        <source>&amp;Theme</source>
        <translation>&amp;Design</translation>
    </message>
    <message>
        <source>&amp;System</source>
        <translation>&amp;System</translation>
    </message>
    <message>
        <source>Use the desktop&apos;s style and colours</source>
        <translation>Stil und Farben des Desktops verwenden</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>&amp;Hell</translation>
    </message>
    <message>
        <source>Light colours</source>
        <translation>Helle Farben</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>&amp;Dunkel</translation>
    </message>
    <message>
        <source>Dark colours</source>
        <translation>Dunkle Farben</translation>
    </message>
</context>
<context>
    <name>gui::TimelineView</name>
    <message>
        <source>current</source>
        <translation>aktuell</translation>
    </message>
    <message>
        <source>was %1</source>
        <translation>war %1</translation>
    </message>
    <message>
        <source>renumbered</source>
        <translation>umnummeriert</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>entfernt</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>&lt;none&gt;</source>
        <translation>&lt;keine&gt;</translation>
    </message>
    <message>
        <source>Created before a lower-numbered revision: a rollback (or a return to this template) gave it a new number before the console was watching.</source>
        <translation>Vor einer Revision mit niedrigerer Nummer erstellt: Ein Rollback (oder die Rückkehr zu diesem Template) hat ihr eine neue Nummer gegeben, bevor die Konsole zusah.</translation>
    </message>
    <message>
        <source>Revision timeline</source>
        <translation>Revisions-Zeitleiste</translation>
    </message>
    <message>
        <source>Select a revision to highlight its nodes in the node map. Right-click (or press the Menu key) for its template, a diff, or a rollback.</source>
        <translation>Wählen Sie eine Revision, um ihre Nodes in der Node-Karte hervorzuheben. Rechtsklick (oder Menütaste) für ihr Template, einen Diff oder einen Rollback.</translation>
    </message>
    <message>
        <source>Show &amp;Template…</source>
        <translation>&amp;Template anzeigen…</translation>
    </message>
    <message>
        <source>&amp;Diff with Current</source>
        <translation>&amp;Diff mit aktueller</translation>
    </message>
    <message>
        <source>Diff &amp;with…</source>
        <translation>Diff &amp;mit…</translation>
    </message>
    <message>
        <source>&amp;Roll Back to This Revision…</source>
        <translation>Auf diese Revision &amp;zurückrollen…</translation>
    </message>
    <message>
        <source>%1 — revision %2 (%3)</source>
        <translation>%1 — Revision %2 (%3)</translation>
    </message>
    <message>
        <source>Revision %1 · %2 · %3</source>
        <translation>Revision %1 · %2 · %3</translation>
    </message>
    <message>
        <source>Diff With</source>
        <translation>Diff mit</translation>
    </message>
    <message>
        <source>Compare revision %1 with:</source>
        <translation>Revision %1 vergleichen mit:</translation>
    </message>
</context>
<context>
    <name>gui::UpgradeExplorer</name>
    <message>
        <source>Node upgrades</source>
        <translation>Node-Upgrades</translation>
    </message>
</context>
<context>
    <name>gui::UpgradePage</name>
    <message>
        <source>Hold</source>
        <translation>Halten</translation>
    </message>
    <message>
        <source>Release</source>
        <translation>Freigeben</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>Überspringen</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Wiederholen</translation>
    </message>
    <message>
        <source>Force…</source>
        <translation>Erzwingen…</translation>
    </message>
    <message>
        <source>Start Node Upgrade…</source>
        <translation>Node-Upgrade starten…</translation>
    </message>
    <message>
        <source>Start a node-agent upgrade with a pre-flight report</source>
        <translation>Ein Upgrade der Node-Agents mit Vorabprüfung starten</translation>
    </message>
    <message>
        <source>Pause…</source>
        <translation>Pausieren…</translation>
    </message>
    <message>
        <source>Stop selecting nodes and deleting pods; restarts already sent finish</source>
        <translation>Keine Nodes mehr auswählen und keine Pods mehr löschen; bereits gesendete Neustarts laufen zu Ende</translation>
    </message>
    <message>
        <source>Resume…</source>
        <translation>Fortsetzen…</translation>
    </message>
    <message>
        <source>Continue; shows what the first pass will do</source>
        <translation>Weitermachen; zeigt, was der erste Durchlauf tun wird</translation>
    </message>
    <message>
        <source>Abort…</source>
        <translation>Abbrechen…</translation>
    </message>
    <message>
        <source>End this rollout: draining nodes are uncordoned, restarting nodes finish</source>
        <translation>Diesen Rollout beenden: Nodes im Drain werden entsperrt, Nodes im Neustart laufen zu Ende</translation>
    </message>
    <message>
        <source>Acknowledge Halt</source>
        <translation>Stopp bestätigen</translation>
    </message>
    <message>
        <source>Acknowledge the failed nodes so the rollout may continue</source>
        <translation>Die fehlgeschlagenen Nodes bestätigen, damit der Rollout weiterlaufen kann</translation>
    </message>
    <message>
        <source>Upgrade headline</source>
        <translation>Upgrade-Zusammenfassung</translation>
    </message>
    <message>
        <source>Seconds since the rollout started</source>
        <translation>Sekunden seit Rollout-Beginn</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>Nodes</translation>
    </message>
    <message>
        <source>Unavailable</source>
        <translation>Nicht verfügbar</translation>
    </message>
    <message>
        <source>Nodes per upgrade phase over time</source>
        <translation>Nodes je Upgrade-Phase im Zeitverlauf</translation>
    </message>
    <message>
        <source>Nodes of the upgrade</source>
        <translation>Nodes des Upgrades</translation>
    </message>
    <message>
        <source>Selected node:</source>
        <translation>Ausgewählter Node:</translation>
    </message>
    <message>
        <source>Upgrade events</source>
        <translation>Upgrade-Events</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Events</translation>
    </message>
    <message>
        <source>No node upgrade selected. Start one with “Start Node Upgrade…”; the pre-flight report shows which nodes go in which order before anything happens.</source>
        <translation>Kein Node-Upgrade ausgewählt. Starten Sie eines mit „Node-Upgrade starten…“; die Vorabprüfung zeigt, welche Nodes in welcher Reihenfolge drankommen, bevor irgendetwas passiert.</translation>
    </message>
    <message>
        <source>Node upgrade</source>
        <translation>Node-Upgrade</translation>
    </message>
    <message>
        <source>Node upgrade %1</source>
        <translation>Node-Upgrade %1</translation>
    </message>
    <message>
        <source>Node upgrade %1 → %2</source>
        <translation>Node-Upgrade %1 → %2</translation>
    </message>
    <message>
        <source>Waiting for the controller&apos;s first pass</source>
        <translation>Warte auf den ersten Durchlauf des Controllers</translation>
    </message>
    <message>
        <source>%1 of %2 nodes on %3 · %4 in flight · %5 pending · %6 failed · %7 skipped · %8 held</source>
        <translation>%1 von %2 Nodes auf %3 · %4 in Arbeit · %5 ausstehend · %6 fehlgeschlagen · %7 übersprungen · %8 gehalten</translation>
    </message>
    <message>
        <source> · budget %1/%2</source>
        <translation> · Budget %1/%2</translation>
    </message>
    <message>
        <source> (maxUnavailable %1 rounded to 0, raised to 1)</source>
        <translation> (maxUnavailable %1 auf 0 gerundet, auf 1 angehoben)</translation>
    </message>
    <message numerus="yes">
        <source>Policies: unmanaged pods %1 · on drain timeout %2 · single replica %3 · health &gt; %4 % · halt after %n failed node(s)</source>
        <translation>
            <numerusform>Richtlinien: nicht verwaltete Pods %1 · bei Drain-Timeout %2 · einzelnes Replikat %3 · Gesundheit &gt; %4 % · Stopp nach %n fehlgeschlagenen Node</numerusform>
            <numerusform>Richtlinien: nicht verwaltete Pods %1 · bei Drain-Timeout %2 · einzelnes Replikat %3 · Gesundheit &gt; %4 % · Stopp nach %n fehlgeschlagenen Nodes</numerusform>
        </translation>
    </message>
    <message>
        <source> · nodes %1</source>
        <translation> · Nodes %1</translation>
    </message>
    <message>
        <source>On resume: %1</source>
        <translation>Beim Fortsetzen: %1</translation>
    </message>
    <message>
        <source>No new node will be selected and no further pod will be deleted. Restarts already sent run to completion; reporting continues.</source>
        <translation>Es wird kein neuer Node ausgewählt und kein weiterer Pod gelöscht. Bereits gesendete Neustarts laufen zu Ende; die Berichte gehen weiter.</translation>
    </message>
    <message>
        <source>No node is in flight.</source>
        <translation>Kein Node ist in Arbeit.</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) still in flight:</source>
        <translation>
            <numerusform>%n Node noch in Arbeit:</numerusform>
            <numerusform>%n Nodes noch in Arbeit:</numerusform>
        </translation>
    </message>
    <message>
        <source>Pause %1</source>
        <translation>%1 pausieren</translation>
    </message>
    <message>
        <source>paused from the console</source>
        <translation>aus der Konsole pausiert</translation>
    </message>
    <message>
        <source>The first pass after resuming will:</source>
        <translation>Der erste Durchlauf nach dem Fortsetzen wird:</translation>
    </message>
    <message>
        <source>do nothing yet (no node can be selected now)</source>
        <translation>noch nichts tun (derzeit kann kein Node ausgewählt werden)</translation>
    </message>
    <message>
        <source>select %1</source>
        <translation>%1 auswählen</translation>
    </message>
    <message>
        <source>delete %1</source>
        <translation>%1 löschen</translation>
    </message>
    <message>
        <source>restart the agent on %1</source>
        <translation>den Agent auf %1 neu starten</translation>
    </message>
    <message>
        <source>Resume %1</source>
        <translation>%1 fortsetzen</translation>
    </message>
    <message>
        <source>Abort %1</source>
        <translation>%1 abbrechen</translation>
    </message>
    <message>
        <source>Cordoned and draining nodes stop and are uncordoned (if this rollout cordoned them); deleted pods are not restored. Nodes already restarting finish. This cannot be undone.</source>
        <translation>Gesperrte Nodes und Nodes im Drain halten an und werden entsperrt (falls dieser Rollout sie gesperrt hat); gelöschte Pods werden nicht wiederhergestellt. Nodes im Neustart laufen zu Ende. Das lässt sich nicht rückgängig machen.</translation>
    </message>
    <message>
        <source>Force %1</source>
        <translation>%1 erzwingen</translation>
    </message>
    <message>
        <source>Delete the remaining pods on %1 regardless of the controller health gates (grace periods are honoured). This is recorded as a Warning event naming you.</source>
        <translation>Die restlichen Pods auf %1 ungeachtet der Gesundheitsschranken der Controller löschen (Grace Periods werden eingehalten). Das wird als Warning-Event mit Ihrem Namen festgehalten.</translation>
    </message>
    <message>
        <source>Min ready</source>
        <translation>Min. bereit</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>Budget</translation>
    </message>
    <message>
        <source>Min ready %</source>
        <translation>Min. bereit %</translation>
    </message>
    <message>
        <source> · blocked</source>
        <translation> · blockiert</translation>
    </message>
    <message>
        <source>&amp;Pause Rollout</source>
        <translation>Rollout &amp;pausieren</translation>
    </message>
    <message>
        <source>&amp;Resume Rollout</source>
        <translation>Rollout &amp;fortsetzen</translation>
    </message>
    <message>
        <source>&amp;Abort Rollout</source>
        <translation>Rollout &amp;abbrechen</translation>
    </message>
    <message>
        <source>&amp;Force Drain</source>
        <translation>Räumen &amp;erzwingen</translation>
    </message>
    <message>
        <source>the spec fields are not valid JSON: %1</source>
        <translation>die Spec-Felder sind kein gültiges JSON: %1</translation>
    </message>
    <message>
        <source>the spec fields must be a JSON object such as {&quot;maxUnavailable&quot;: &quot;10%&quot;}</source>
        <translation>die Spec-Felder müssen ein JSON-Objekt sein, etwa {&quot;maxUnavailable&quot;: &quot;10%&quot;}</translation>
    </message>
    <message>
        <source>unknown spec field &quot;%1&quot; (the fields are %2)</source>
        <translation>unbekanntes Spec-Feld &quot;%1&quot; (die Felder sind %2)</translation>
    </message>
    <message>
        <source>no cluster is loaded</source>
        <translation>kein Cluster geladen</translation>
    </message>
    <message>
        <source>the rollout&apos;s spec is invalid: %1</source>
        <translation>die Spec des Rollouts ist ungültig: %1</translation>
    </message>
    <message>
        <source>Who drives the node upgrades</source>
        <translation>Wer die Node-Upgrades steuert</translation>
    </message>
    <message>
        <source>Driven by this console (it holds the Lease %1). Closing the console stops the upgrade: nodes in flight stay cordoned until a controller takes the Lease over.</source>
        <translation>Gesteuert von dieser Konsole (sie hält den Lease %1). Wenn Sie die Konsole schließen, hält das Upgrade an: Nodes in Arbeit bleiben gesperrt, bis ein Controller den Lease übernimmt.</translation>
    </message>
    <message>
        <source>Renewing the Lease failed: %1</source>
        <translation>Den Lease zu erneuern ist fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Driven by the controller %1 (it holds the Lease %2). Actions here are requests it carries out at its next pass; this console runs no second controller.</source>
        <translation>Gesteuert vom Controller %1 (er hält den Lease %2). Aktionen hier sind Anfragen, die er bei seinem nächsten Durchlauf ausführt; diese Konsole startet keinen zweiten Controller.</translation>
    </message>
    <message>
        <source>Reading the cluster&apos;s node upgrades…</source>
        <translation>Die Node-Upgrades des Clusters werden gelesen …</translation>
    </message>
    <message>
        <source>No controller drives the node upgrades: this console cannot take the Lease %1: %2</source>
        <translation>Kein Controller steuert die Node-Upgrades: Diese Konsole kann den Lease %1 nicht übernehmen: %2</translation>
    </message>
    <message>
        <source>No controller holds the Lease %1: rollouts wait until one runs.</source>
        <translation>Kein Controller hält den Lease %1: Rollouts warten, bis einer läuft.</translation>
    </message>
    <message>
        <source>No controller holds the Lease %1: a rollout started here is driven by this console while it stays open.</source>
        <translation>Kein Controller hält den Lease %1: Ein hier gestarteter Rollout wird von dieser Konsole gesteuert, solange sie geöffnet bleibt.</translation>
    </message>
    <message>
        <source>This cluster does not serve NodeUpgradeRollouts. Install the resource with kubectl apply -f installer/kubernetes/10-crd.yaml.</source>
        <translation>Dieser Cluster stellt keine NodeUpgradeRollouts bereit. Installieren Sie die Ressource mit kubectl apply -f installer/kubernetes/10-crd.yaml.</translation>
    </message>
    <message>
        <source>The cluster&apos;s node upgrades cannot be read: %1</source>
        <translation>Die Node-Upgrades des Clusters können nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Observed node upgrade → %1</source>
        <translation>Beobachtetes Knoten-Upgrade → %1</translation>
    </message>
    <message>
        <source>%1 of %2 nodes on %3 · %4 in flight · %5 pending · at most %6 seen in flight at once</source>
        <translation>%1 von %2 Knoten auf %3 · %4 in Arbeit · %5 ausstehend · höchstens %6 gleichzeitig in Arbeit gesehen</translation>
    </message>
    <message>
        <source>Driven by another tool (no NodeUpgradeRollout): each node&apos;s phase is inferred from its kubelet version, cordon, drain conditions, disruption taints and readiness. This console only watches.</source>
        <translation>Von einem anderen Werkzeug gesteuert (kein NodeUpgradeRollout): die Phase jedes Knotens wird aus Kubelet-Version, Cordon, Drain-Bedingungen, Disruption-Taints und Bereitschaft abgeleitet. Diese Konsole beobachtet nur.</translation>
    </message>
    <message>
        <source>Observed node upgrade</source>
        <translation>Beobachtetes Knoten-Upgrade</translation>
    </message>
    <message>
        <source>a newer version</source>
        <translation>einer neueren Version</translation>
    </message>
</context>
<context>
    <name>gui::UpgradeStatusIndicator</name>
    <message>
        <source>Node upgrade progress</source>
        <translation>Fortschritt des Node-Upgrades</translation>
    </message>
    <message>
        <source>Upgrade %1: %2/%3</source>
        <translation>Upgrade %1: %2/%3</translation>
    </message>
    <message numerus="yes">
        <source> · %n in flight</source>
        <translation>
            <numerusform> · %n in Arbeit</numerusform>
            <numerusform> · %n in Arbeit</numerusform>
        </translation>
    </message>
    <message>
        <source>Click to show the node upgrade</source>
        <translation>Klicken zeigt das Node-Upgrade</translation>
    </message>
    <message>
        <source>Observed upgrade: %1/%2</source>
        <translation>Beobachtetes Upgrade: %1/%2</translation>
    </message>
</context>
<context>
    <name>gui::WindowSession</name>
    <message>
        <source>History File Damaged</source>
        <translation>Verlaufsdatei beschädigt</translation>
    </message>
</context>
<context>
    <name>models</name>
    <message>
        <source>image change</source>
        <translation>Image-Änderung</translation>
    </message>
    <message>
        <source>restart</source>
        <translation>Neustart</translation>
    </message>
    <message>
        <source>strategy edit</source>
        <translation>Strategieänderung</translation>
    </message>
    <message>
        <source>rollback</source>
        <translation>Zurückrollen</translation>
    </message>
    <message>
        <source>pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>annotation kubectl.kubernetes.io/last-applied-configuration</source>
        <translation>Annotation kubectl.kubernetes.io/last-applied-configuration</translation>
    </message>
    <message>
        <source>release %1</source>
        <translation>Release %1</translation>
    </message>
    <message>
        <source>label app.kubernetes.io/managed-by=Helm</source>
        <translation>Label app.kubernetes.io/managed-by=Helm</translation>
    </message>
    <message>
        <source>application %1</source>
        <translation>Anwendung %1</translation>
    </message>
    <message>
        <source>annotation %1</source>
        <translation>Annotation %1</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>field manager &quot;%1&quot;</source>
        <translation>Field Manager „%1“</translation>
    </message>
    <message>
        <source>metadata.managedFields</source>
        <translation>metadata.managedFields</translation>
    </message>
    <message>
        <source>Managed by kubectl apply (%1): the next kubectl apply of its manifest reverts this %2.</source>
        <translation>Verwaltet von kubectl apply (%1): Das nächste kubectl apply seines Manifests macht diese %2 rückgängig.</translation>
    </message>
    <message>
        <source>Managed by Helm (%1): the next helm upgrade reverts this %2.</source>
        <translation>Verwaltet von Helm (%1): Das nächste helm upgrade macht diese %2 rückgängig.</translation>
    </message>
    <message>
        <source>Managed by Argo CD (%1): its next sync reverts this %2, at once when self-heal is on.</source>
        <translation>Verwaltet von Argo CD (%1): Die nächste Synchronisierung macht diese %2 rückgängig, bei aktiviertem Self-Heal sofort.</translation>
    </message>
    <message>
        <source>Managed by Flux (%1): its next reconciliation reverts this %2.</source>
        <translation>Verwaltet von Flux (%1): Die nächste Reconciliation macht diese %2 rückgängig.</translation>
    </message>
    <message>
        <source>Also written by the field manager &quot;%1&quot; (%2): it may revert this %3.</source>
        <translation>Auch vom Field Manager „%1“ geschrieben (%2): Er kann diese %3 rückgängig machen.</translation>
    </message>
    <message>
        <source>up to %1 nodes at a time of %2</source>
        <translation>bis zu %1 Nodes gleichzeitig von %2</translation>
    </message>
</context>
<context>
    <name>models::BackendPermissions</name>
    <message>
        <source>you may not %1 %2</source>
        <translation>Sie dürfen %2 nicht %1</translation>
    </message>
    <message>
        <source>you may not %1 %2 in %3</source>
        <translation>Sie dürfen %2 in %3 nicht %1</translation>
    </message>
</context>
<context>
    <name>models::ClusterBackend</name>
    <message>
        <source>not supported by this backend</source>
        <translation>von diesem Backend nicht unterstützt</translation>
    </message>
    <message>
        <source>unknown upgrade action &quot;%1&quot;</source>
        <translation>unbekannte Upgrade-Aktion „%1“</translation>
    </message>
    <message>
        <source>%1 needs a node</source>
        <translation>%1 braucht einen Node</translation>
    </message>
    <message>
        <source>%1 done</source>
        <translation>%1 erledigt</translation>
    </message>
    <message>
        <source>%1 %2 done</source>
        <translation>%1 %2 erledigt</translation>
    </message>
    <message>
        <source>started</source>
        <translation>gestartet</translation>
    </message>
    <message>
        <source>spec updated</source>
        <translation>Spec aktualisiert</translation>
    </message>
</context>
<context>
    <name>models::DaemonSetListModel</name>
    <message>
        <source>(no cluster)</source>
        <translation>(kein Cluster)</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>verbunden</translation>
    </message>
    <message>
        <source>disconnected</source>
        <translation>getrennt</translation>
    </message>
    <message>
        <source>RollingUpdate (maxUnavailable %1, maxSurge %2)</source>
        <translation>RollingUpdate (maxUnavailable %1, maxSurge %2)</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Desired</source>
        <translation>Gewünscht</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>Aktualisiert</translation>
    </message>
    <message>
        <source>Available</source>
        <translation>Verfügbar</translation>
    </message>
</context>
<context>
    <name>models::EmbeddedWorker</name>
    <message>
        <source>embedded: %1</source>
        <translation>eingebettet: %1</translation>
    </message>
    <message>
        <source>embedded: no scenario loaded</source>
        <translation>eingebettet: kein Szenario geladen</translation>
    </message>
    <message>
        <source>no scenario loaded</source>
        <translation>kein Szenario geladen</translation>
    </message>
    <message>
        <source>daemonsets.apps &quot;%1&quot; not found in namespace %2</source>
        <translation>daemonsets.apps „%1“ nicht gefunden in Namespace %2</translation>
    </message>
    <message>
        <source>already paused</source>
        <translation>bereits pausiert</translation>
    </message>
    <message>
        <source>paused: update strategy switched to OnDelete (new nodes still get pods)</source>
        <translation>pausiert: Update-Strategie auf OnDelete umgestellt (neue Nodes bekommen weiterhin Pods)</translation>
    </message>
    <message>
        <source>not paused</source>
        <translation>nicht pausiert</translation>
    </message>
    <message>
        <source>resumed: saved update strategy restored</source>
        <translation>fortgesetzt: gesicherte Update-Strategie wiederhergestellt</translation>
    </message>
    <message>
        <source>rebuilt with seed %1</source>
        <translation>mit Seed %1 neu aufgebaut</translation>
    </message>
    <message>
        <source>loaded</source>
        <translation>geladen</translation>
    </message>
    <message>
        <source>speed %1x</source>
        <translation>Geschwindigkeit %1x</translation>
    </message>
    <message>
        <source>clock paused</source>
        <translation>Uhr angehalten</translation>
    </message>
    <message>
        <source>advanced %1</source>
        <translation>um %1 vorgestellt</translation>
    </message>
    <message>
        <source>seed %1 applies to the next scenario</source>
        <translation>Seed %1 gilt ab dem nächsten Szenario</translation>
    </message>
    <message>
        <source>unknown fault kind &quot;%1&quot;</source>
        <translation>unbekannte Störungsart „%1“</translation>
    </message>
    <message>
        <source>fault %1 injected</source>
        <translation>Störung %1 ausgelöst</translation>
    </message>
    <message>
        <source>the rollout is not a JSON object</source>
        <translation>der Rollout ist kein JSON-Objekt</translation>
    </message>
    <message>
        <source>the rollout has no name</source>
        <translation>der Rollout hat keinen Namen</translation>
    </message>
    <message>
        <source>image unchanged: the containers already use these images</source>
        <translation>Image unverändert: Die Container verwenden diese Images bereits</translation>
    </message>
    <message>
        <source>nodes &quot;%1&quot; not found</source>
        <translation>nodes &quot;%1&quot; not found</translation>
    </message>
    <message>
        <source>already cordoned</source>
        <translation>bereits gesperrt</translation>
    </message>
    <message>
        <source>already uncordoned</source>
        <translation>bereits entsperrt</translation>
    </message>
    <message>
        <source>cordoned</source>
        <translation>gesperrt</translation>
    </message>
    <message>
        <source>uncordoned</source>
        <translation>entsperrt</translation>
    </message>
    <message>
        <source>a drain of %1 is already running</source>
        <translation>ein Drain von %1 läuft bereits</translation>
    </message>
    <message>
        <source>cordoned, nothing evicted: %1</source>
        <translation>gesperrt, nichts verdrängt: %1</translation>
    </message>
    <message>
        <source>drain stopped: the cluster was replaced</source>
        <translation>Drain beendet: Der Cluster wurde ersetzt</translation>
    </message>
    <message>
        <source>unsupported kind %1</source>
        <translation>nicht unterstützte Art %1</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>beendet</translation>
    </message>
    <message>
        <source>the pod is gone: %1</source>
        <translation>Der Pod ist nicht mehr da: %1</translation>
    </message>
    <message>
        <source>the container has ended</source>
        <translation>Der Container ist beendet</translation>
    </message>
</context>
<context>
    <name>models::EventListModel</name>
    <message>
        <source>Last seen</source>
        <translation>Zuletzt gesehen</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Object</source>
        <translation>Objekt</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>Anzahl</translation>
    </message>
</context>
<context>
    <name>models::HistoryDatabase</name>
    <message>
        <source>History is not saved: the Qt SQLite driver (QSQLITE) is not installed.</source>
        <translation>Der Verlauf wird nicht gespeichert: Der Qt-SQLite-Treiber (QSQLITE) ist nicht installiert.</translation>
    </message>
    <message>
        <source>History is not saved: the folder %1 cannot be created.</source>
        <translation>Der Verlauf wird nicht gespeichert: Der Ordner %1 kann nicht angelegt werden.</translation>
    </message>
    <message>
        <source>History is not saved: %1 cannot be read (%2).</source>
        <translation>Der Verlauf wird nicht gespeichert: %1 kann nicht gelesen werden (%2).</translation>
    </message>
    <message>
        <source>not an SQLite database</source>
        <translation>keine SQLite-Datenbank</translation>
    </message>
    <message>
        <source>integrity check failed</source>
        <translation>Integritätsprüfung fehlgeschlagen</translation>
    </message>
    <message>
        <source>History is not saved: %1 cannot be opened (%2).</source>
        <translation>Der Verlauf wird nicht gespeichert: %1 kann nicht geöffnet werden (%2).</translation>
    </message>
    <message>
        <source>History is not saved: %1 is still damaged after recovery (%2).</source>
        <translation>Der Verlauf wird nicht gespeichert: %1 ist nach der Wiederherstellung noch beschädigt (%2).</translation>
    </message>
    <message>
        <source>History is not saved: %1 is damaged (%2) and cannot be moved aside to %3.</source>
        <translation>Der Verlauf wird nicht gespeichert: %1 ist beschädigt (%2) und kann nicht nach %3 verschoben werden.</translation>
    </message>
    <message>
        <source>History is not saved: %1 is damaged (%2) and its journal %3 cannot be moved aside.</source>
        <translation>Der Verlauf wird nicht gespeichert: %1 ist beschädigt (%2) und sein Journal %3 kann nicht beiseitegelegt werden.</translation>
    </message>
    <message>
        <source>The history database %1 was damaged (%2). It was moved to %3 and a new, empty history was started.</source>
        <translation>Die Verlaufsdatenbank %1 war beschädigt (%2). Sie wurde nach %3 verschoben und ein neuer, leerer Verlauf wurde begonnen.</translation>
    </message>
    <message>
        <source>History is not saved: %1 cannot be prepared (%2).</source>
        <translation>Der Verlauf wird nicht gespeichert: %1 kann nicht vorbereitet werden (%2).</translation>
    </message>
    <message>
        <source>History is not saved: %1 was written by a newer version of Daemonscope (schema %2, this version knows %3) and is left untouched.</source>
        <translation>Der Verlauf wird nicht gespeichert: %1 wurde von einer neueren Daemonscope-Version geschrieben (Schema %2, diese Version kennt %3) und bleibt unverändert.</translation>
    </message>
    <message>
        <source>History is not available.</source>
        <translation>Der Verlauf ist nicht verfügbar.</translation>
    </message>
</context>
<context>
    <name>models::HistoryRecorder</name>
    <message>
        <source>History could not be saved: %1</source>
        <translation>Der Verlauf konnte nicht gespeichert werden: %1</translation>
    </message>
</context>
<context>
    <name>models::LiveDrillDown</name>
    <message>
        <source>HTTP %1: %2</source>
        <translation>HTTP %1: %2</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>nicht verbunden</translation>
    </message>
    <message>
        <source>unsupported kind %1</source>
        <translation>nicht unterstützte Art %1</translation>
    </message>
    <message>
        <source>events: %1</source>
        <translation>Events: %1</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>beendet</translation>
    </message>
</context>
<context>
    <name>models::LiveWorker</name>
    <message>
        <source>all namespaces</source>
        <translation>alle Namespaces</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 / %2 (%3)</source>
        <translation>%1 / %2 (%3)</translation>
    </message>
    <message>
        <source>connected to %1</source>
        <translation>verbunden mit %1</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>nicht verbunden</translation>
    </message>
    <message>
        <source>paused: update strategy switched to OnDelete (new nodes still get pods)</source>
        <translation>pausiert: Update-Strategie auf OnDelete umgestellt (neue Nodes bekommen weiterhin Pods)</translation>
    </message>
    <message>
        <source>already paused</source>
        <translation>bereits pausiert</translation>
    </message>
    <message>
        <source>resumed: saved update strategy restored</source>
        <translation>fortgesetzt: gesicherte Update-Strategie wiederhergestellt</translation>
    </message>
    <message>
        <source>not paused</source>
        <translation>nicht pausiert</translation>
    </message>
    <message>
        <source>not available on a live cluster</source>
        <translation>auf einem echten Cluster nicht verfügbar</translation>
    </message>
    <message>
        <source>cordoned</source>
        <translation>gesperrt</translation>
    </message>
    <message>
        <source>uncordoned</source>
        <translation>entsperrt</translation>
    </message>
    <message>
        <source>already cordoned</source>
        <translation>bereits gesperrt</translation>
    </message>
    <message>
        <source>already uncordoned</source>
        <translation>bereits entsperrt</translation>
    </message>
    <message>
        <source>a drain of %1 is already running</source>
        <translation>ein Drain von %1 läuft bereits</translation>
    </message>
    <message>
        <source>cordoned, nothing evicted: %1</source>
        <translation>gesperrt, nichts verdrängt: %1</translation>
    </message>
    <message>
        <source>image unchanged: the containers already use these images</source>
        <translation>Image unverändert: Die Container verwenden diese Images bereits</translation>
    </message>
    <message>
        <source>the rollout is not a manifest with a spec</source>
        <translation>der Rollout ist kein Manifest mit einer Spec</translation>
    </message>
    <message>
        <source>node upgrades are off for this connection</source>
        <translation>Node-Upgrades sind für diese Verbindung ausgeschaltet</translation>
    </message>
</context>
<context>
    <name>models::NodeLag</name>
    <message numerus="yes">
        <source>maxUnavailable %1, %n unavailable now</source>
        <translation>
            <numerusform>maxUnavailable %1, %n jetzt nicht verfügbar</numerusform>
            <numerusform>maxUnavailable %1, %n jetzt nicht verfügbar</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n restarts</source>
        <translation>
            <numerusform>%n Neustart</numerusform>
            <numerusform>%n Neustarts</numerusform>
        </translation>
    </message>
    <message>
        <source>pod %1 is terminating</source>
        <translation>Pod %1 wird beendet</translation>
    </message>
    <message>
        <source>the old pod is still on the node</source>
        <translation>der alte Pod läuft noch auf dem Node</translation>
    </message>
    <message>
        <source>up to date</source>
        <translation>aktuell</translation>
    </message>
    <message>
        <source>node not ready</source>
        <translation>Node nicht bereit</translation>
    </message>
    <message>
        <source>node being upgraded</source>
        <translation>Node wird aktualisiert</translation>
    </message>
    <message>
        <source>cannot be scheduled</source>
        <translation>nicht einplanbar</translation>
    </message>
    <message>
        <source>image pull failing</source>
        <translation>Image-Pull schlägt fehl</translation>
    </message>
    <message>
        <source>crashing</source>
        <translation>stürzt ab</translation>
    </message>
    <message>
        <source>not becoming ready</source>
        <translation>wird nicht bereit</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>startet</translation>
    </message>
    <message>
        <source>being replaced</source>
        <translation>wird ersetzt</translation>
    </message>
    <message>
        <source>no pod yet</source>
        <translation>noch kein Pod</translation>
    </message>
    <message>
        <source>waiting for the rollout budget</source>
        <translation>wartet auf das Rollout-Budget</translation>
    </message>
    <message>
        <source>waiting for a pod deletion (OnDelete)</source>
        <translation>wartet auf das Löschen des Pods (OnDelete)</translation>
    </message>
    <message>
        <source>rollout paused</source>
        <translation>Rollout pausiert</translation>
    </message>
</context>
<context>
    <name>models::NodeMapModel</name>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>ready</source>
        <translation>bereit</translation>
    </message>
    <message>
        <source>not ready</source>
        <translation>nicht bereit</translation>
    </message>
    <message>
        <source>terminating</source>
        <translation>wird beendet</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>fehlt</translation>
    </message>
    <message>
        <source>surging</source>
        <translation>Surge</translation>
    </message>
    <message>
        <source>not scheduled</source>
        <translation>nicht eingeplant</translation>
    </message>
    <message>
        <source>Node %1 (%2)</source>
        <translation>Node %1 (%2)</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>Ready</translation>
    </message>
    <message>
        <source>NotReady</source>
        <translation>NotReady</translation>
    </message>
    <message>
        <source>Zone: %1</source>
        <translation>Zone: %1</translation>
    </message>
    <message>
        <source>Pod: %1 (%2)</source>
        <translation>Pod: %1 (%2)</translation>
    </message>
    <message>
        <source>Pod: none (%1)</source>
        <translation>Pod: keiner (%1)</translation>
    </message>
    <message>
        <source>Revision: %1</source>
        <translation>Revision: %1</translation>
    </message>
    <message>
        <source>Revision: %1, hash %2</source>
        <translation>Revision: %1, Hash %2</translation>
    </message>
    <message>
        <source>Age: %1</source>
        <translation>Alter: %1</translation>
    </message>
    <message>
        <source>Conditions: %1</source>
        <translation>Conditions: %1</translation>
    </message>
    <message>
        <source>Behind: %1</source>
        <translation>Im Rückstand: %1</translation>
    </message>
    <message>
        <source>Behind: %1 — %2</source>
        <translation>Im Rückstand: %1 — %2</translation>
    </message>
</context>
<context>
    <name>models::ObjectDescribe</name>
    <message>
        <source>&lt;none&gt;</source>
        <translation>&lt;keine&gt;</translation>
    </message>
    <message>
        <source>&lt;unknown&gt;</source>
        <translation>&lt;unbekannt&gt;</translation>
    </message>
    <message>
        <source>%1 (%2 ago)</source>
        <translation>%1 (vor %2)</translation>
    </message>
    <message numerus="yes">
        <source>… (+%n more)</source>
        <translation>
            <numerusform>… (+%n weiterer)</numerusform>
            <numerusform>… (+%n weitere)</numerusform>
        </translation>
    </message>
    <message>
        <source> op=Exists</source>
        <translation> op=Exists</translation>
    </message>
    <message>
        <source> for %1s</source>
        <translation> für %1 s</translation>
    </message>
    <message>
        <source>Last State</source>
        <translation>Letzter Zustand</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation>Wartend</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>  Started</source>
        <translation>  Gestartet</translation>
    </message>
    <message>
        <source>  Reason</source>
        <translation>  Grund</translation>
    </message>
    <message>
        <source>  Message</source>
        <translation>  Meldung</translation>
    </message>
    <message>
        <source>Terminated</source>
        <translation>Beendet</translation>
    </message>
    <message>
        <source>  Exit Code</source>
        <translation>  Exit-Code</translation>
    </message>
    <message>
        <source>  Finished</source>
        <translation>  Beendet um</translation>
    </message>
    <message>
        <source>Container %1</source>
        <translation>Container %1</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>Image</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>Bereit</translation>
    </message>
    <message>
        <source>True</source>
        <translation>Ja</translation>
    </message>
    <message>
        <source>False</source>
        <translation>Nein</translation>
    </message>
    <message>
        <source>Restart Count</source>
        <translation>Neustarts</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Events</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Age</source>
        <translation>Alter</translation>
    </message>
    <message>
        <source>From</source>
        <translation>Von</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
    <message>
        <source>%1 (x%2 over %3)</source>
        <translation>%1 (%2× in %3)</translation>
    </message>
    <message>
        <source>Pod</source>
        <translation>Pod</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>Namespace</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>Node</translation>
    </message>
    <message>
        <source>Start Time</source>
        <translation>Startzeit</translation>
    </message>
    <message>
        <source>Labels</source>
        <translation>Labels</translation>
    </message>
    <message>
        <source>Terminating</source>
        <translation>Wird beendet</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>IP</source>
        <translation>IP</translation>
    </message>
    <message>
        <source>Controlled By</source>
        <translation>Kontrolliert von</translation>
    </message>
    <message>
        <source>Conditions</source>
        <translation>Bedingungen</translation>
    </message>
    <message>
        <source>Last Transition</source>
        <translation>Letzter Übergang</translation>
    </message>
    <message>
        <source>Tolerations</source>
        <translation>Tolerations</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>Taints</source>
        <translation>Taints</translation>
    </message>
    <message>
        <source>Unschedulable</source>
        <translation>Nicht planbar</translation>
    </message>
    <message>
        <source>true</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>false</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>Addresses</source>
        <translation>Adressen</translation>
    </message>
    <message>
        <source>Capacity</source>
        <translation>Kapazität</translation>
    </message>
    <message>
        <source>Resource</source>
        <translation>Ressource</translation>
    </message>
    <message>
        <source>Allocatable</source>
        <translation>Zuweisbar</translation>
    </message>
    <message>
        <source>System Info</source>
        <translation>Systeminformationen</translation>
    </message>
    <message>
        <source>Kubelet Version</source>
        <translation>Kubelet-Version</translation>
    </message>
    <message>
        <source>OS Image</source>
        <translation>OS-Image</translation>
    </message>
    <message>
        <source>Kernel Version</source>
        <translation>Kernel-Version</translation>
    </message>
    <message>
        <source>Container Runtime</source>
        <translation>Container-Runtime</translation>
    </message>
    <message>
        <source>Operating System</source>
        <translation>Betriebssystem</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>Architektur</translation>
    </message>
    <message>
        <source>Boot ID</source>
        <translation>Boot-ID</translation>
    </message>
    <message>
        <source>Machine ID</source>
        <translation>Machine-ID</translation>
    </message>
    <message>
        <source>Pods</source>
        <translation>Pods</translation>
    </message>
    <message>
        <source>Revision</source>
        <translation>Revision</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
</context>
<context>
    <name>models::ObservedUpgradeTracker</name>
    <message numerus="yes">
        <source>%n reboot(s) seen</source>
        <translation>
            <numerusform>%n Neustart gesehen</numerusform>
            <numerusform>%n Neustarts gesehen</numerusform>
        </translation>
    </message>
    <message>
        <source>Observed: all %1 nodes run %2</source>
        <translation>Beobachtet: alle %1 Knoten laufen mit %2</translation>
    </message>
    <message>
        <source>Observed: %1/%2 nodes on %3 · %4 in flight</source>
        <translation>Beobachtet: %1/%2 Knoten auf %3 · %4 in Arbeit</translation>
    </message>
    <message>
        <source> · ETA %1</source>
        <translation> · noch etwa %1</translation>
    </message>
    <message numerus="yes">
        <source> · %n drain(s) held</source>
        <translation>
            <numerusform> · %n Drain aufgehalten</numerusform>
            <numerusform> · %n Drains aufgehalten</numerusform>
        </translation>
    </message>
    <message>
        <source>Observed: %1 in flight of %2 nodes · target version not known yet (no node has changed version)</source>
        <translation>Beobachtet: %1 von %2 Knoten in Arbeit · Zielversion noch unbekannt (kein Knoten hat die Version gewechselt)</translation>
    </message>
</context>
<context>
    <name>models::RevisionTimelineModel</name>
    <message>
        <source>%1 (current)</source>
        <translation>%1 (aktuell)</translation>
    </message>
    <message>
        <source>previously revision %1</source>
        <translation>vorher Revision %1</translation>
    </message>
    <message>
        <source>removed by the cluster (revisionHistoryLimit); kept in local history</source>
        <translation>vom Cluster entfernt (revisionHistoryLimit); im lokalen Verlauf erhalten</translation>
    </message>
    <message>
        <source>Revision</source>
        <translation>Revision</translation>
    </message>
    <message>
        <source>Hash</source>
        <translation>Hash</translation>
    </message>
    <message>
        <source>Age</source>
        <translation>Alter</translation>
    </message>
    <message>
        <source>Change cause</source>
        <translation>Änderungsgrund</translation>
    </message>
    <message>
        <source>Images</source>
        <translation>Images</translation>
    </message>
    <message>
        <source>Pods</source>
        <translation>Pods</translation>
    </message>
</context>
<context>
    <name>models::RollbackPreview</name>
    <message>
        <source>daemonset &quot;%1&quot; not found</source>
        <translation>DaemonSet „%1“ nicht gefunden</translation>
    </message>
    <message>
        <source>unable to find specified revision %1 in history</source>
        <translation>angegebene Revision %1 nicht im Verlauf gefunden</translation>
    </message>
    <message>
        <source>no last revision to roll back to</source>
        <translation>keine vorherige Revision für einen Rollback vorhanden</translation>
    </message>
    <message>
        <source>skipped rollback (current template already matches revision %1)</source>
        <translation>Rollback übersprungen (aktuelles Template entspricht bereits Revision %1)</translation>
    </message>
    <message>
        <source>rolled back</source>
        <translation>zurückgerollt</translation>
    </message>
    <message>
        <source>nothing changes</source>
        <translation>nichts ändert sich</translation>
    </message>
    <message>
        <source>paused (OnDelete): pods are replaced only when deleted; new nodes still get the target revision</source>
        <translation>pausiert (OnDelete): Pods werden nur beim Löschen ersetzt; neue Nodes bekommen weiterhin die Zielrevision</translation>
    </message>
    <message>
        <source>OnDelete: pods are replaced only when deleted</source>
        <translation>OnDelete: Pods werden nur beim Löschen ersetzt</translation>
    </message>
    <message numerus="yes">
        <source>cannot finish while %n pod(s) down on NotReady nodes (%1) use the whole maxUnavailable budget of %2</source>
        <translation>
            <numerusform>kann nicht abschließen, solange %n Pod auf einem NotReady-Node (%1) ausfällt und das ganze maxUnavailable-Budget von %2 belegt</numerusform>
            <numerusform>kann nicht abschließen, solange %n Pods auf NotReady-Nodes (%1) ausfallen und das ganze maxUnavailable-Budget von %2 belegen</numerusform>
        </translation>
    </message>
    <message>
        <source> observed</source>
        <translation> beobachtet</translation>
    </message>
    <message>
        <source> default</source>
        <translation> Standard</translation>
    </message>
    <message>
        <source> + minReadySeconds %1s</source>
        <translation> + minReadySeconds %1 s</translation>
    </message>
    <message>
        <source>%1 nodes, %2 at a time: %3 waves × (%4 per node%5) ≈ %6</source>
        <translation>%1 Nodes, %2 gleichzeitig: %3 Wellen × (%4 pro Node%5) ≈ %6</translation>
    </message>
    <message numerus="yes">
        <source>; maxUnavailable %1 less %n pod(s) down on NotReady nodes (%2), which wait for their nodes</source>
        <translation>
            <numerusform>; maxUnavailable %1 abzüglich %n ausgefallenen Pods auf einem NotReady-Node (%2), der auf seinen Node wartet</numerusform>
            <numerusform>; maxUnavailable %1 abzüglich %n ausgefallener Pods auf NotReady-Nodes (%2), die auf ihre Nodes warten</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n node(s) NotReady (%1) wait for their nodes</source>
        <translation>
            <numerusform>; %n Node NotReady (%1) wartet auf seinen Node</numerusform>
            <numerusform>; %n Nodes NotReady (%1) warten auf ihre Nodes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>models::RolloutBadge</name>
    <message>
        <source>Progressing</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>Pausiert</translation>
    </message>
    <message>
        <source>Complete</source>
        <translation>Abgeschlossen</translation>
    </message>
    <message>
        <source>Stuck</source>
        <translation>Hängt</translation>
    </message>
    <message>
        <source>Settled</source>
        <translation>Erledigt</translation>
    </message>
</context>
<context>
    <name>models::RolloutHeadline</name>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 und %n weiterer</numerusform>
            <numerusform>%1 und %n weitere</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) without a pod</source>
        <translation>
            <numerusform>%n Node ohne Pod</numerusform>
            <numerusform>%n Nodes ohne Pod</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 and %2</source>
        <translation>%1 und %2</translation>
    </message>
    <message>
        <source>No DaemonSet selected</source>
        <translation>Kein DaemonSet ausgewählt</translation>
    </message>
    <message>
        <source>Rollout complete: %1 of %2 pods updated and available</source>
        <translation>Rollout abgeschlossen: %1 von %2 Pods aktualisiert und verfügbar</translation>
    </message>
    <message>
        <source>Paused: update strategy switched to OnDelete; new nodes still get pods</source>
        <translation>Pausiert: Update-Strategie auf OnDelete umgestellt; neue Nodes bekommen weiterhin Pods</translation>
    </message>
    <message>
        <source>OnDelete: pods are replaced only when deleted (%1 of %2 updated)</source>
        <translation>OnDelete: Pods werden nur beim Löschen ersetzt (%1 von %2 aktualisiert)</translation>
    </message>
    <message>
        <source>Waiting for the DaemonSet controller to observe the latest change</source>
        <translation>Warte darauf, dass der DaemonSet-Controller die letzte Änderung sieht</translation>
    </message>
    <message>
        <source>Rolling out revision %1: %2 of %3 updated, %4 available</source>
        <translation>Rollout von Revision %1: %2 von %3 aktualisiert, %4 verfügbar</translation>
    </message>
    <message>
        <source>%1; replacing %2</source>
        <translation>%1; ersetze %2</translation>
    </message>
    <message>
        <source>Slow: no progress for %1 (a node usually takes %2); %3 of %4 updated</source>
        <translation>Langsam: seit %1 kein Fortschritt (ein Node braucht sonst %2); %3 von %4 aktualisiert</translation>
    </message>
    <message>
        <source>Slow: no progress for %1; %2 of %3 updated</source>
        <translation>Langsam: seit %1 kein Fortschritt; %2 von %3 aktualisiert</translation>
    </message>
    <message>
        <source>Stuck: no progress for %1; %2 of %3 updated, %4 available</source>
        <translation>Hängt: seit %1 kein Fortschritt; %2 von %3 aktualisiert, %4 verfügbar</translation>
    </message>
    <message>
        <source>Waiting: the %1 budget (%2) is used by %3</source>
        <translation>Wartet: Das %1-Budget (%2) ist belegt durch %3</translation>
    </message>
    <message>
        <source>New pods are not becoming ready: %1 on %2</source>
        <translation>Neue Pods werden nicht bereit: %1 auf %2</translation>
    </message>
    <message>
        <source>New pods are not becoming ready: %1 on %2 (%3)</source>
        <translation>Neue Pods werden nicht bereit: %1 auf %2 (%3)</translation>
    </message>
    <message>
        <source>Pods stuck terminating on %1 for %2</source>
        <translation>Pods hängen beim Beenden auf %1 seit %2</translation>
    </message>
    <message>
        <source>Node %1 is NotReady; its pod counts against the budget</source>
        <translation>Node %1 ist NotReady; sein Pod zählt gegen das Budget</translation>
    </message>
    <message>
        <source>Nodes %1 are NotReady; their pods count against the budget</source>
        <translation>Nodes %1 sind NotReady; ihre Pods zählen gegen das Budget</translation>
    </message>
    <message>
        <source>%1 (no progress for %2)</source>
        <translation>%1 (seit %2 kein Fortschritt)</translation>
    </message>
</context>
<context>
    <name>models::RolloutMarkerModel</name>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Seconds</source>
        <translation>Sekunden</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Marker</source>
        <translation>Markierung</translation>
    </message>
    <message>
        <source>Rollout start</source>
        <translation>Rollout-Beginn</translation>
    </message>
    <message>
        <source>Rollback</source>
        <translation>Rollback</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>Pausiert</translation>
    </message>
    <message>
        <source>Resumed</source>
        <translation>Fortgesetzt</translation>
    </message>
    <message>
        <source>Rollout to revision %1</source>
        <translation>Rollout auf Revision %1</translation>
    </message>
    <message>
        <source>Rollback to revision %1</source>
        <translation>Rollback auf Revision %1</translation>
    </message>
    <message>
        <source>Rollout paused</source>
        <translation>Rollout pausiert</translation>
    </message>
    <message>
        <source>Rollout resumed</source>
        <translation>Rollout fortgesetzt</translation>
    </message>
</context>
<context>
    <name>models::RolloutProgressModel</name>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Seconds</source>
        <translation>Sekunden</translation>
    </message>
    <message>
        <source>Desired</source>
        <translation>Gewünscht</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>Aktualisiert</translation>
    </message>
    <message>
        <source>Available</source>
        <translation>Verfügbar</translation>
    </message>
    <message>
        <source>Unavailable</source>
        <translation>Nicht verfügbar</translation>
    </message>
    <message>
        <source>maxUnavailable</source>
        <translation>maxUnavailable</translation>
    </message>
    <message>
        <source>about %1 left</source>
        <translation>noch etwa %1</translation>
    </message>
</context>
<context>
    <name>models::SnapshotAssembler</name>
    <message>
        <source>paused: update strategy switched to OnDelete; new nodes still get pods</source>
        <translation>pausiert: Update-Strategie auf OnDelete umgestellt; neue Nodes bekommen weiterhin Pods</translation>
    </message>
    <message>
        <source>%1 of %2 pods updated and available</source>
        <translation>%1 von %2 Pods aktualisiert und verfügbar</translation>
    </message>
    <message>
        <source>a pod on revision %1 has not become ready for %2</source>
        <translation>ein Pod auf Revision %1 ist seit %2 nicht bereit geworden</translation>
    </message>
    <message>
        <source>no progress for %1</source>
        <translation>seit %1 kein Fortschritt</translation>
    </message>
    <message>
        <source>%1 of %2 pods updated, %3 available</source>
        <translation>%1 von %2 Pods aktualisiert, %3 verfügbar</translation>
    </message>
    <message>
        <source>%1 of %2 pods updated, %3 available; the others are on nodes being upgraded: %4</source>
        <translation>%1 von %2 Pods aktualisiert, %3 verfügbar; die übrigen liegen auf Knoten, die gerade aktualisiert werden: %4</translation>
    </message>
    <message>
        <source>done with exceptions: %1 of %2 updated, %3 available; down on NotReady %4</source>
        <translation>erledigt mit Ausnahmen: %1 von %2 aktualisiert, %3 verfügbar; ausgefallen auf NotReady %4</translation>
    </message>
    <message numerus="yes">
        <source> and %n more</source>
        <translation>
            <numerusform> und %n weiterer</numerusform>
            <numerusform> und %n weitere</numerusform>
        </translation>
    </message>
    <message>
        <source>; being upgraded: %1</source>
        <translation>; im Upgrade: %1</translation>
    </message>
    <message>
        <source>pod %1 on %2 (revision %3) has not become ready for %4</source>
        <translation>Pod %1 auf %2 (Revision %3) ist seit %4 nicht bereit</translation>
    </message>
    <message>
        <source>; its pods are down on NotReady %1</source>
        <translation>; seine Pods sind ausgefallen auf NotReady %1</translation>
    </message>
</context>
<context>
    <name>models::StartRolloutPreview</name>
    <message>
        <source>daemonset &quot;%1&quot; not found</source>
        <translation>daemonset &quot;%1&quot; not found</translation>
    </message>
</context>
<context>
    <name>models::UpgradeEventListModel</name>
    <message>
        <source>first %1, last %2</source>
        <translation>zuerst %1, zuletzt %2</translation>
    </message>
    <message>
        <source>Last seen</source>
        <translation>Zuletzt gesehen</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Object</source>
        <translation>Objekt</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>Anzahl</translation>
    </message>
</context>
<context>
    <name>models::UpgradeNodeTableModel</name>
    <message>
        <source> · held</source>
        <translation> · gehalten</translation>
    </message>
    <message>
        <source> · blocked</source>
        <translation> · blockiert</translation>
    </message>
    <message>
        <source>this rollout</source>
        <translation>dieser Rollout</translation>
    </message>
    <message>
        <source>someone else</source>
        <translation>jemand anderes</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>Node</translation>
    </message>
    <message>
        <source>Zone</source>
        <translation>Zone</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Warteschlange</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>Phase</translation>
    </message>
    <message>
        <source>In phase</source>
        <translation>In der Phase seit</translation>
    </message>
    <message>
        <source>Next deadline</source>
        <translation>Nächste Frist</translation>
    </message>
    <message>
        <source>Reason / blockers</source>
        <translation>Grund / Blockaden</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>Versuch</translation>
    </message>
    <message>
        <source>Cordoned by</source>
        <translation>Gesperrt von</translation>
    </message>
</context>
<context>
    <name>models::UpgradePhaseChartModel</name>
    <message>
        <source>Done</source>
        <translation>Fertig</translation>
    </message>
    <message>
        <source>Soaking</source>
        <translation>Beobachtung</translation>
    </message>
    <message>
        <source>Restarting</source>
        <translation>Neustart</translation>
    </message>
    <message>
        <source>Draining</source>
        <translation>Drain</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>Ausstehend</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation>Übersprungen</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Seconds</source>
        <translation>Sekunden</translation>
    </message>
    <message>
        <source>%1 (stacked)</source>
        <translation>%1 (gestapelt)</translation>
    </message>
    <message>
        <source>Unavailable</source>
        <translation>Nicht verfügbar</translation>
    </message>
    <message>
        <source>maxUnavailable</source>
        <translation>maxUnavailable</translation>
    </message>
    <message>
        <source>Min controller ready %</source>
        <translation>Min. Controller bereit %</translation>
    </message>
</context>
<context>
    <name>models::UpgradePreflight</name>
    <message>
        <source>deleted once the managed pods are gone</source>
        <translation>gelöscht, sobald die verwalteten Pods weg sind</translation>
    </message>
    <message>
        <source>kept: the node waits for you to delete them or skip it</source>
        <translation>behalten: Der Node wartet, bis Sie sie löschen oder ihn überspringen</translation>
    </message>
    <message>
        <source>deleted at once (countdown already expired)</source>
        <translation>sofort gelöscht (Frist bereits abgelaufen)</translation>
    </message>
    <message>
        <source>deleted %1 after marking (%2 left)</source>
        <translation>%1 nach der Markierung gelöscht (noch %2)</translation>
    </message>
    <message>
        <source>%1 on %2 (blocks the node until you act)</source>
        <translation>%1 auf %2 (blockiert den Node, bis Sie eingreifen)</translation>
    </message>
    <message>
        <source>%1 on %2 (disrupted, with a Warning)</source>
        <translation>%1 auf %2 (wird unterbrochen, mit Warning)</translation>
    </message>
    <message>
        <source>%1: %2 — %3</source>
        <translation>%1: %2 — %3</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) to upgrade</source>
        <translation>
            <numerusform>%n Node zu aktualisieren</numerusform>
            <numerusform>%n Nodes zu aktualisieren</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> (of %n matched)</source>
        <translation>
            <numerusform> (von %n passenden)</numerusform>
            <numerusform> (von %n passenden)</numerusform>
        </translation>
    </message>
    <message>
        <source>Every matched node already runs the target version.</source>
        <translation>Alle passenden Nodes laufen bereits mit der Zielversion.</translation>
    </message>
    <message>
        <source>(no zone)</source>
        <translation>(keine Zone)</translation>
    </message>
    <message>
        <source>Per zone: %1</source>
        <translation>Pro Zone: %1</translation>
    </message>
    <message numerus="yes">
        <source>Budget: %n node(s) at a time</source>
        <translation>
            <numerusform>Budget: %n Node gleichzeitig</numerusform>
            <numerusform>Budget: %n Nodes gleichzeitig</numerusform>
        </translation>
    </message>
    <message>
        <source> (the percentage rounded to 0 and was raised to 1)</source>
        <translation> (der Prozentsatz ergab gerundet 0 und wurde auf 1 angehoben)</translation>
    </message>
    <message numerus="yes">
        <source>… %n more</source>
        <translation>
            <numerusform>… %n weiterer</numerusform>
            <numerusform>… %n weitere</numerusform>
        </translation>
    </message>
    <message>
        <source>Predicted order: %1</source>
        <translation>Voraussichtliche Reihenfolge: %1</translation>
    </message>
    <message>
        <source>Estimated duration: about %1</source>
        <translation>Geschätzte Dauer: etwa %1</translation>
    </message>
    <message>
        <source>Single-replica controllers: none</source>
        <translation>Controller mit einem Replikat: keine</translation>
    </message>
    <message>
        <source>Single-replica controllers:</source>
        <translation>Controller mit einem Replikat:</translation>
    </message>
    <message>
        <source>Unmanaged pods: none</source>
        <translation>Nicht verwaltete Pods: keine</translation>
    </message>
    <message>
        <source>Unmanaged pods:</source>
        <translation>Nicht verwaltete Pods:</translation>
    </message>
    <message>
        <source>Already cordoned by someone else (never uncordoned by the rollout): %1</source>
        <translation>Bereits von jemand anderem gesperrt (der Rollout entsperrt sie nie): %1</translation>
    </message>
    <message>
        <source>NotReady now, each holding a budget slot until it recovers: %1</source>
        <translation>Derzeit NotReady, jeder belegt einen Budgetplatz, bis er sich erholt: %1</translation>
    </message>
    <message>
        <source>%1 (cordoned)</source>
        <translation>%1 (abgesperrt)</translation>
    </message>
    <message>
        <source>%1 (NotReady)</source>
        <translation>%1 (NotReady)</translation>
    </message>
    <message>
        <source>every node to upgrade is NotReady (%1); each starts once it is Ready again</source>
        <translation>jeder zu aktualisierende Knoten ist NotReady (%1); jeder beginnt, sobald er wieder Ready ist</translation>
    </message>
    <message numerus="yes">
        <source>the budget of %n node(s) is held by %1; raise maxUnavailable, or bring the node back</source>
        <translation>
            <numerusform>das Budget von %n Knoten ist belegt durch %1; erhöhen Sie maxUnavailable oder bringen Sie den Knoten zurück</numerusform>
            <numerusform>das Budget von %n Knoten ist belegt durch %1; erhöhen Sie maxUnavailable oder bringen Sie den Knoten zurück</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n of them held now by NotReady or cordoned nodes</source>
        <translation>
            <numerusform>, davon %n jetzt durch NotReady- oder abgesperrte Knoten belegt</numerusform>
            <numerusform>, davon %n jetzt durch NotReady- oder abgesperrte Knoten belegt</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot start now: %1.</source>
        <translation>Kann jetzt nicht beginnen: %1.</translation>
    </message>
    <message>
        <source>Estimated duration: none — no node can start yet</source>
        <translation>Geschätzte Dauer: keine — noch kann kein Knoten beginnen</translation>
    </message>
    <message>
        <source>%1: %2 — the node waits (localDataPolicy Block)</source>
        <translation>%1: %2 — der Node wartet (localDataPolicy Block)</translation>
    </message>
    <message>
        <source>%1: %2 — evicted, their emptyDir data is lost (localDataPolicy Delete)</source>
        <translation>%1: %2 — verdrängt, ihre emptyDir-Daten gehen verloren (localDataPolicy Delete)</translation>
    </message>
    <message>
        <source>Pods with emptyDir data:</source>
        <translation>Pods mit emptyDir-Daten:</translation>
    </message>
    <message>
        <source>the node&apos;s agent is asked (upgrade/kamikaze) and must acknowledge</source>
        <translation>der Agent des Knotens wird gebeten (upgrade/kamikaze) und muss bestätigen</translation>
    </message>
    <message>
        <source>a Job per node in %1 runs %2</source>
        <translation>ein Job pro Knoten in %1 führt %2 aus</translation>
    </message>
    <message>
        <source>left to another tool; each node must return on the target version</source>
        <translation>einem anderen Werkzeug überlassen; jeder Knoten muss mit der Zielversion zurückkehren</translation>
    </message>
    <message>
        <source>Restart: %1</source>
        <translation>Neustart: %1</translation>
    </message>
    <message>
        <source>The nodes&apos; pods are still being read: pods to move, single-replica controllers and local data are missing from this report until they are.</source>
        <translation>Die Pods der Nodes werden noch gelesen: Zu verschiebende Pods, Controller mit einem Replikat und lokale Daten fehlen in diesem Bericht, bis sie gelesen sind.</translation>
    </message>
</context>
<context>
    <name>models::UpgradeRolloutInfo</name>
    <message>
        <source>Up to date</source>
        <translation>Aktuell</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>Ausstehend</translation>
    </message>
    <message>
        <source>Cordoned</source>
        <translation>Gesperrt (cordoned)</translation>
    </message>
    <message>
        <source>Draining managed pods</source>
        <translation>Drain verwalteter Pods</translation>
    </message>
    <message>
        <source>Draining unmanaged pods</source>
        <translation>Drain nicht verwalteter Pods</translation>
    </message>
    <message>
        <source>Restarting</source>
        <translation>Neustart</translation>
    </message>
    <message>
        <source>Soaking</source>
        <translation>Beobachtung</translation>
    </message>
    <message>
        <source>Upgraded</source>
        <translation>Aktualisiert</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation>Übersprungen</translation>
    </message>
    <message>
        <source>Removed</source>
        <translation>Entfernt</translation>
    </message>
</context>
<context>
    <name>models::UpgradeRolloutListModel</name>
    <message>
        <source>Pending</source>
        <translation>Ausstehend</translation>
    </message>
    <message>
        <source>Progressing</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>Pausiert</translation>
    </message>
    <message>
        <source>Halted</source>
        <translation>Angehalten</translation>
    </message>
    <message>
        <source>Aborting</source>
        <translation>Wird abgebrochen</translation>
    </message>
    <message>
        <source>Aborted</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <source>Completed</source>
        <translation>Abgeschlossen</translation>
    </message>
    <message>
        <source>Completed with exceptions</source>
        <translation>Mit Ausnahmen abgeschlossen</translation>
    </message>
    <message>
        <source>%1 → %2
%3</source>
        <translation>%1 → %2
%3</translation>
    </message>
    <message>
        <source>Node upgrade</source>
        <translation>Node-Upgrade</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>Phase</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Fertig</translation>
    </message>
    <message>
        <source>Observed upgrade</source>
        <translation>Beobachtetes Upgrade</translation>
    </message>
</context>
<context>
    <name>models::UpgradeSnapshotBuilder</name>
    <message>
        <source>%1 on %2: %3</source>
        <translation>%1 auf %2: %3</translation>
    </message>
</context>
</TS>
