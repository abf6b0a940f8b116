<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>gui::DaemonSetPage</name>
    <message numerus="yes">
        <source>No event matches the filter (%n hidden).</source>
        <translation>
            <numerusform>No event matches the filter (%n hidden).</numerusform>
            <numerusform>No event matches the filter (%n hidden).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gui::DiffView</name>
    <message numerus="yes">
        <source>%n changes</source>
        <translation>
            <numerusform>%n change</numerusform>
            <numerusform>%n changes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gui::MainWindow</name>
    <message numerus="yes">
        <source> · %n node(s)</source>
        <translation>
            <numerusform> · %n node</numerusform>
            <numerusform> · %n nodes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n action(s) taken since the scenario was loaded (rollbacks, pauses, faults, upgrade controls) will be lost.</source>
        <translation>
            <numerusform>%n action taken since the scenario was loaded (rollbacks, pauses, faults, upgrade controls) will be lost.</numerusform>
            <numerusform>%n actions taken since the scenario was loaded (rollbacks, pauses, faults, upgrade controls) will be lost.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gui::NodeMapLegend</name>
    <message numerus="yes">
        <source>revision %1: %n pods</source>
        <translation>
            <numerusform>revision %1: %n pod</numerusform>
            <numerusform>revision %1: %n pods</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Revision %1: %n pods. Click to highlight its nodes.</source>
        <translation>
            <numerusform>Revision %1: %n pod. Click to highlight its node.</numerusform>
            <numerusform>Revision %1: %n pods. Click to highlight its nodes.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Revision %1 (%2): %n pods. Click to highlight its nodes.</source>
        <translation>
            <numerusform>Revision %1 (%2): %n pod. Click to highlight its node.</numerusform>
            <numerusform>Revision %1 (%2): %n pods. Click to highlight its nodes.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gui::NodeMapView</name>
    <message numerus="yes">
        <source>%n nodes in %1 zones</source>
        <translation>
            <numerusform>%n node in %1 zones</numerusform>
            <numerusform>%n nodes in %1 zones</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gui::NodesTab</name>
    <message numerus="yes">
        <source>Why %n node(s) are behind: %1</source>
        <translation>
            <numerusform>Why %n node is behind: %1</numerusform>
            <numerusform>Why %n nodes are behind: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gui::ObjectDetailDialog</name>
    <message numerus="yes">
        <source>%n line(s); ended: %1</source>
        <translation>
            <numerusform>%n line; ended: %1</numerusform>
            <numerusform>%n lines; ended: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n line</numerusform>
            <numerusform>%n lines</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gui::RollbackDialog</name>
    <message numerus="yes">
        <source>%n node(s) will get a new pod</source>
        <translation>
            <numerusform>%n node will get a new pod</numerusform>
            <numerusform>%n nodes will get a new pod</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n replaced</source>
        <translation>
            <numerusform>%n replaced</numerusform>
            <numerusform>%n replaced</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n without a pod yet</source>
        <translation>
            <numerusform>%n without a pod yet</numerusform>
            <numerusform>%n without a pod yet</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n already run(s) the target revision.</source>
        <translation>
            <numerusform>%n already runs the target revision.</numerusform>
            <numerusform>%n already run the target revision.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gui::StartRolloutDialog</name>
    <message numerus="yes">
        <source>%n node(s) will get a new pod</source>
        <translation>
            <numerusform>%n node will get a new pod</numerusform>
            <numerusform>%n nodes will get a new pod</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n already run(s) the target revision.</source>
        <translation>
            <numerusform>%n already runs the target revision.</numerusform>
            <numerusform>%n already run the target revision.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>No new rollout starts. The running rollout has %n node(s) left.</source>
        <translation>
            <numerusform>No new rollout starts. The running rollout has %n node left.</numerusform>
            <numerusform>No new rollout starts. The running rollout has %n nodes left.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gui::UpgradePage</name>
    <message numerus="yes">
        <source>Policies: unmanaged pods %1 · on drain timeout %2 · single replica %3 · health &gt; %4 % · halt after %n failed node(s)</source>
        <translation>
            <numerusform>Policies: unmanaged pods %1 · on drain timeout %2 · single replica %3 · health &gt; %4 % · halt after %n failed node</numerusform>
            <numerusform>Policies: unmanaged pods %1 · on drain timeout %2 · single replica %3 · health &gt; %4 % · halt after %n failed nodes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) still in flight:</source>
        <translation>
            <numerusform>%n node still in flight:</numerusform>
            <numerusform>%n nodes still in flight:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gui::UpgradeStatusIndicator</name>
    <message numerus="yes">
        <source> · %n in flight</source>
        <translation>
            <numerusform> · %n in flight</numerusform>
            <numerusform> · %n in flight</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>models::NodeLag</name>
    <message numerus="yes">
        <source>maxUnavailable %1, %n unavailable now</source>
        <translation>
            <numerusform>maxUnavailable %1, %n unavailable now</numerusform>
            <numerusform>maxUnavailable %1, %n unavailable now</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n restarts</source>
        <translation>
            <numerusform>%n restart</numerusform>
            <numerusform>%n restarts</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>models::ObjectDescribe</name>
    <message numerus="yes">
        <source>… (+%n more)</source>
        <translation>
            <numerusform>… (+%n more)</numerusform>
            <numerusform>… (+%n more)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>models::ObservedUpgradeTracker</name>
    <message numerus="yes">
        <source>%n reboot(s) seen</source>
        <translation>
            <numerusform>%n reboot seen</numerusform>
            <numerusform>%n reboots seen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · %n drain(s) held</source>
        <translation>
            <numerusform> · %n drain held</numerusform>
            <numerusform> · %n drains held</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>models::RollbackPreview</name>
    <message numerus="yes">
        <source>cannot finish while %n pod(s) down on NotReady nodes (%1) use the whole maxUnavailable budget of %2</source>
        <translation>
            <numerusform>cannot finish while %n pod down on NotReady nodes (%1) uses the whole maxUnavailable budget of %2</numerusform>
            <numerusform>cannot finish while %n pods down on NotReady nodes (%1) use the whole maxUnavailable budget of %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; maxUnavailable %1 less %n pod(s) down on NotReady nodes (%2), which wait for their nodes</source>
        <translation>
            <numerusform>; maxUnavailable %1 less %n pod down on a NotReady node (%2), which waits for its node</numerusform>
            <numerusform>; maxUnavailable %1 less %n pods down on NotReady nodes (%2), which wait for their nodes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n node(s) NotReady (%1) wait for their nodes</source>
        <translation>
            <numerusform>; %n node NotReady (%1) waits for its node</numerusform>
            <numerusform>; %n nodes NotReady (%1) wait for their nodes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>models::RolloutHeadline</name>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 and %n more</numerusform>
            <numerusform>%1 and %n more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n node(s) without a pod</source>
        <translation>
            <numerusform>%n node without a pod</numerusform>
            <numerusform>%n nodes without a pod</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>models::SnapshotAssembler</name>
    <message numerus="yes">
        <source> and %n more</source>
        <translation>
            <numerusform> and %n more</numerusform>
            <numerusform> and %n more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>models::UpgradePreflight</name>
    <message numerus="yes">
        <source>%n node(s) to upgrade</source>
        <translation>
            <numerusform>%n node to upgrade</numerusform>
            <numerusform>%n nodes to upgrade</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> (of %n matched)</source>
        <translation>
            <numerusform> (of %n matched)</numerusform>
            <numerusform> (of %n matched)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Budget: %n node(s) at a time</source>
        <translation>
            <numerusform>Budget: %n node at a time</numerusform>
            <numerusform>Budget: %n nodes at a time</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>… %n more</source>
        <translation>
            <numerusform>… %n more</numerusform>
            <numerusform>… %n more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the budget of %n node(s) is held by %1; raise maxUnavailable, or bring the node back</source>
        <translation>
            <numerusform>the budget of %n node is held by %1; raise maxUnavailable, or bring the node back</numerusform>
            <numerusform>the budget of %n nodes is held by %1; raise maxUnavailable, or bring the node back</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n of them held now by NotReady or cordoned nodes</source>
        <translation>
            <numerusform>, %n of them held now by a NotReady or cordoned node</numerusform>
            <numerusform>, %n of them held now by NotReady or cordoned nodes</numerusform>
        </translation>
    </message>
</context>
</TS>
