"""What each report code means, for the formats that describe their rules
(SARIF's rule objects, the text report's explanations). Spec rules keep
their permanent identifiers; toolwire's own warnings are named NAME-*."""

from __future__ import annotations

from typing import Dict, NamedTuple

SPEC_URL = "https://github.com/flowdrop-io/flowdrop-spec"


def _spec_rule(rule_id: str) -> str:
    """The rule's own file in the specification (``HEAD`` is the default
    branch, whatever it is called)."""
    return f"{SPEC_URL}/blob/HEAD/rules/{rule_id}.yml"



class Rule(NamedTuple):
    id: str
    name: str
    """A short PascalCase name (SARIF ``rule.name``)."""
    summary: str
    """One sentence: what the rule requires."""
    help: str
    """How to fix a finding, in a few sentences."""
    level: str
    """``error`` for violations, ``warning`` for warnings."""
    help_uri: str
    """Where the rule is defined: the specification's own rule file, or, for
    toolwire's own warnings, CMP-9, the rule they help keep."""


RULES: Dict[str, Rule] = {
    rule.id: rule
    for rule in (
        Rule(
            "CMP-9",
            "ToolNamesUniquePerConsumer",
            "Tool names are unique per consumer, checked at compile time.",
            "Every leaf tool that reaches a consumer, directly or through any number of toolboxes, is named "
            "from its label (lowercased, runs of other characters turned into '_'). Two tools reaching one "
            "consumer must not share a name: rename all but one of them, or wire them to different consumers.",
            "error",
            _spec_rule("CMP-9"),
        ),
        Rule(
            "CMP-10",
            "ToolsWiredToToolConsumers",
            "A node that has tools wired to it must be of a type that accepts tools.",
            "The node-type catalogue says this node's type cannot consume tools, so compilation is refused. "
            "Wire the tools to a node whose type accepts tools (an agent, or a Tool Box that forwards them), "
            "or remove the tool edges; if the type does take tools, fix its catalogue entry "
            "(parameters.tool.connectable: true, or an input with dataType tool).",
            "error",
            _spec_rule("CMP-10"),
        ),
        Rule(
            "EDGE-5",
            "RecognisedEdgeType",
            "A declared edge type must be one the workflow format recognises.",
            "An unrecognised data.edgeType is neither a tool edge nor excluded from tool wiring, so a typo "
            "silently turns tool wiring into an ordering edge. Use a recognised type (tool_availability for "
            "tool wiring), or declare the type as recognised in the configuration.",
            "error",
            _spec_rule("EDGE-5"),
        ),
        Rule(
            "R8",
            "EdgeEndpointDeclared",
            "A tool edge's source and target name declared nodes.",
            "The node is checked as a node with no type, and its id is its label. Declare it in `nodes`, or fix the id on the edge.",
            "warning",
            SPEC_URL,  # R2 and R8 belong to the storage profile, which has no rule files
        ),
        Rule(
            "CMP-10-UNKNOWN",
            "NodeTypeInCatalogue",
            "A node that receives tool edges has a type the node-type catalogue does not know.",
            "CMP-10 could not be checked at these nodes: their type is not in the catalogue (or they have no "
            "type, or are never declared). Add the type to the catalogue, or fix the node's type.",
            "warning",
            _spec_rule("CMP-10"),
        ),
        Rule(
            "NAME-LOSSY",
            "LabelKeepsItsLetters",
            "A tool's label loses characters on the way to its name.",
            "Non-ASCII characters are dropped from tool names ('Café' -> 'caf', 'Search 🔍' -> 'search'), so "
            "labels that look different can become the same name. Use ASCII letters and digits for what tells "
            "tools apart.",
            "warning",
            _spec_rule("CMP-9"),
        ),
        Rule(
            "NAME-UNNAMED",
            "LabelGivesAName",
            "A tool's label has no ASCII letter or digit, so its name is 'unnamed_tool'.",
            "Every such tool is called unnamed_tool, so any two of them reaching one consumer collide. "
            "Give the tool a label with ASCII letters or digits.",
            "warning",
            _spec_rule("CMP-9"),
        ),
        Rule(
            "DUPLICATE-KEY",
            "KeysAppearOnce",
            "A key toolwire reads appears more than once in one JSON object.",
            "JSON leaves repeated keys undefined; toolwire, like JavaScript and PHP, reads the last value and "
            "ignores the ones before, so an id, label, type or edge type written earlier in the object does "
            "nothing. Keep one of them: the one that says what is meant.",
            "warning",
            SPEC_URL,  # a JSON matter, no rule of the specification
        ),
        # The site check's own warnings (SEMANTICS section 12), last so that
        # every ruleIndex before them keeps its meaning.
        Rule(
            "CMP-9-CALL-UNKNOWN",
            "CalledWorkflowChecked",
            "A node runs a workflow that is not among the workflows checked.",
            "Its calls are not followed, so a tool wired to it that clashes with one inside the workflow it "
            "runs goes unnoticed. Check that workflow together with this one (the site's directory, or both "
            "files with --node-types), or fix the workflow id in its node type's executor_plugin.",
            "warning",
            _spec_rule("CMP-9"),
        ),
        Rule(
            "CMP-9-PORT",
            "ToolPortNamesANode",
            "An input_ports entry of a workflow cannot be read, or names no node of the workflow.",
            "Tools handed to the workflow through this entry reach no node of it, so they are not checked "
            "inside it. Give the entry a node_id naming one of the workflow's nodes.",
            "warning",
            _spec_rule("CMP-9"),
        ),
        Rule(
            "CMP-9-ID",
            "WorkflowIdIsAString",
            "A workflow's id is not a string, so no node type can name it as the workflow it runs.",
            "Calls to it cannot be followed: a tool wired to a node that runs it is not checked against the "
            "tools inside it. Give the workflow a string id (Drupal writes the config entity's machine name).",
            "warning",
            _spec_rule("CMP-9"),
        ),
    )
}
