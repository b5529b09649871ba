package assert

// The check reference's table: per check type, what passes, the evaltest
// method, an example and the parameters it says more about; per
// parameter name, what it means, its default and PromptKit's name. The
// parameters themselves, their shapes and which are required come from
// the registry (checkdocs.go), and TestCheckDocs fails when a type or a
// parameter it reads is missing here, so CHECKS.md cannot drift from the
// code: regenerate it with `go run ./cmd/evalkit checks -md > CHECKS.md`.

type typeDoc struct {
	summary string
	fluent  string
	example map[string]any
	params  map[string]words // this type's words, over paramWords'
}

// words document a parameter: meaning, default (empty: none, or
// required), own (evalkit's, not PromptKit's), promptkit (PromptKit's
// other name for it), either (for a parameter needed only instead of or
// beside others: the rule, such as "give contains or equals" or "required
// with metric state", shown in place of required or a default).
type words struct {
	meaning, def string
	own          bool
	promptkit    string
	either       string
}

// over is w with o's non-empty fields.
func (w words) over(o words) words {
	if o.meaning != "" {
		w.meaning = o.meaning
	}
	if o.def != "" {
		w.def = o.def
	}
	if o.own {
		w.own = true
	}
	if o.promptkit != "" {
		w.promptkit = o.promptkit
	}
	if o.either != "" {
		w.either = o.either
	}
	return w
}

type m = map[string]any
type l = []any

var typeDocs = map[string]typeDoc{
	// Text.
	"contains": {summary: "The last assistant message contains every pattern (session scope: the assistant messages together do).", fluent: "Contains",
		example: m{"patterns": l{"refund", "$42"}}},
	"contains_any": {summary: "Some assistant message contains at least one pattern.", fluent: "ContainsAny",
		example: m{"patterns": l{"refund", "credit"}}, params: map[string]words{"scope": {def: "session"}}},
	"content_excludes": {summary: "No assistant message contains any pattern.", fluent: "Excludes",
		example: m{"patterns": l{"sorry", "as an AI"}}, params: map[string]words{"scope": {def: "session"}}},
	"regex": {summary: "The last assistant message matches the regular expression (RE2 syntax).", fluent: "Regex",
		example: m{"pattern": `\$\d+(\.\d\d)?`}},
	"min_length": {summary: "The last assistant message has at least min characters.", fluent: "MinLength", example: m{"min": 20},
		params: map[string]words{"min": {meaning: "the fewest characters"}}},
	"max_length": {summary: "The last assistant message has at most max characters.", fluent: "MaxLength", example: m{"max": 600},
		params: map[string]words{"max": {meaning: "the most characters"}}},
	"sentence_count": {summary: "The last assistant message has at most max sentences; without max it only measures the count.", example: m{"max": 3},
		params: map[string]words{"max": {meaning: "the most sentences", def: "none: the count is measured, and passes"}}},
	"equals": {summary: "The output (or the value an expression selects from its JSON) equals the expected value, or one of any_of.",
		example: m{"expected": "Your refund was issued."},
		params:  map[string]words{"expected": {either: "give expected or any_of"}, "any_of": {either: "give expected or any_of"}}},
	// JSON.
	"json_valid":  {summary: "The last assistant message is valid JSON.", fluent: "JSONValid", example: m{"allow_wrapped": true}},
	"json_schema": {summary: "The JSON of the last assistant message matches the JSON Schema (any draft).", fluent: "JSONSchema", example: m{"schema": m{"type": "object", "required": l{"order_id"}}}},
	"json_path": {summary: "A JMESPath expression over the last assistant message's JSON selects a value that equals, contains or lies within what is expected.", fluent: "JSONPath", example: m{"expression": "refund.amount", "expected": 42},
		params: map[string]words{
			"contains": {meaning: "items the result, an array, must hold (each compared as a JSON value)"},
			"expected": {meaning: "the value the result must equal, compared as JSON values (7 and 7.0 are equal); null wants a null, and a field path the JSON does not have fails (no value at …)"},
			"min":      {meaning: "the least the result, a number, may be"},
			"max":      {meaning: "the most the result, a number, may be"},
		}},
	"field_presence": {summary: "The JSON of the last assistant message has every field (dotted paths).", fluent: "FieldPresence", example: m{"fields": l{"order_id", "refund.amount"}}},
	// Tools.
	"tools_called":     {summary: "Every named tool was called.", fluent: "ToolsCalled", example: m{"tool_names": l{"get_order_details", "issue_refund"}}},
	"tools_not_called": {summary: "None of the named tools was called.", fluent: "ToolsNotCalled", example: m{"tool_names": l{"delete_account"}}},
	"tool_args": {summary: "A call of the tool had the expected arguments (a subset of its arguments, compared as JSON values).", fluent: "ToolArgs", example: m{"tool_name": "issue_refund", "expected_args": m{"order_id": "#W123"}},
		params: map[string]words{"tool_name": {either: "required, unless calls is given"}, "expected_args": {either: "required, unless calls is given", meaning: "arguments the call must have, as JSON values (a subset of the call's: for exact arguments use tool_calls_with_args with match: exact)"}, "calls": {either: "in place of tool_name and expected_args"}}},
	"tool_call_sequence": {summary: "The tools were called in this order (other calls may come between).", fluent: "ToolCallSequence", example: m{"sequence": l{"get_order_details", "issue_refund"}}},
	"tool_call_count": {summary: "The tool (every tool, when none is named) was called between min and max times.", fluent: "ToolCallCount", example: m{"tool": "search", "max": 3},
		params: map[string]words{"min": {meaning: "the fewest calls", either: "give min, max or both"}, "max": {meaning: "the most calls", either: "give min, max or both"}, "tool": {def: "every tool"}}},
	"no_tool_errors": {summary: "No tool call ended in an error.", fluent: "NoToolErrors", example: m{"error_pattern": "^Error: "}},
	"tool_args_excluded": {summary: "No call of the tool had the excluded arguments.", example: m{"tool_name": "issue_refund", "excluded_args": m{"amount": 0}},
		params: map[string]words{"excluded_args": {either: "give excluded_args, forbidden_args or both"}, "forbidden_args": {either: "give excluded_args, forbidden_args or both"}}},
	"tool_calls_with_args": {summary: "Calls of the tool had the expected arguments and results (several calls, in an order, with calls).", example: m{"tool_name": "issue_refund", "expected_args": m{"order_id": "#W123"}, "no_error": true}},
	"tool_call_chain":      {summary: "The calls form the chain of steps: each step's tool, arguments and result, in order.", example: m{"steps": l{m{"tool": "get_order_details"}, m{"tool": "issue_refund", "no_error": true}}}},
	"tool_anti_pattern":    {summary: "No sequence of calls the patterns name occurs (looping, calling before checking).", example: m{"patterns": l{m{"sequence": l{"issue_refund", "issue_refund"}, "message": "refunded twice"}}}},
	"tool_call_order": {summary: "The calls follow the stages in order: every step of a stage, in any order among themselves, before any step of the next (a partial order; one step a stage is tool_call_chain).", fluent: "ToolCallOrder",
		example: m{"stages": l{l{"get_user_details", "get_reservation_details"}, l{"update_reservation_flights"}}}},
	"tool_calls_valid": {summary: "Every call names a declared tool and its arguments are valid against the tool's JSON Schema: no missing required or unknown parameter, no wrong type (promptfoo's is-valid-openai-tools-call, BFCL's AST checker).", fluent: "ToolCallsValid",
		example: m{"tools": l{m{"name": "get_weather", "parameters": m{"type": "object", "properties": m{"city": m{"type": "string"}}, "required": l{"city"}}}}, "no_extra_args": true},
		params:  map[string]words{"tools": {meaning: "the declared tools, {name, description, parameters} or OpenAI's {type: function, function: {...}}", def: "the transcript's declared tools"}}},
	"tool_calls_acceptable": {summary: "The calls match the expected calls, any order, each argument one of its acceptable values or omitted where \"\" is among them (BFCL's possible answers).", fluent: "ToolCallsAcceptable",
		example: m{"ground_truth": l{m{"calculate_area": m{"base": l{10}, "height": l{5}, "unit": l{"units", ""}}}}},
		params:  map[string]words{"scope": {def: "turn (BFCL judges one answer)"}}},
	"tool_no_repeat":             {summary: "No tool is called again with the same arguments, one call after the other, more than max_repeats times.", example: m{"max_repeats": 1}},
	"tool_efficiency":            {summary: "The calls stay within a count, an error count and an error rate.", example: m{"max_calls": 8, "max_errors": 1}},
	"tool_exec":                  {summary: "Runs the tool with the registry's tools (Registry.WithTools) and passes when it succeeds.", example: m{"tool": "lookup_order", "args": m{"order_id": "#W123"}}},
	"tool_result_includes":       {summary: "The tool's result contains every pattern.", example: m{"tool": "get_order_details", "patterns": l{"delivered"}}},
	"tool_result_matches":        {summary: "The tool's result matches the regular expression.", example: m{"tool": "get_order_details", "pattern": `status":\s*"delivered`}},
	"tool_result_has_media":      {summary: "The tool's result holds media of the type.", example: m{"tool": "render_chart", "media_type": "image"}},
	"tool_result_media_type":     {summary: "The tool's result holds media of the MIME type.", example: m{"tool": "render_chart", "mime_type": "image/png"}},
	"invariant_fields_preserved": {summary: "The fields of the tool's arguments keep their value from call to call.", example: m{"tool": "update_order", "fields": l{"order_id"}}},
	// Agents, skills, workflows, compositions, guardrails.
	"agent_invoked":             {summary: "Every named agent was handed off to (called as a tool).", fluent: "AgentInvoked", example: m{"agents": l{"billing_agent"}}},
	"agent_not_invoked":         {summary: "None of the named agents was handed off to.", fluent: "AgentNotInvoked", example: m{"agents": l{"admin_agent"}}},
	"agent_response_contains":   {summary: "The agent's response (its tool result) contains the text.", fluent: "AgentResponseContains", example: m{"agent": "billing_agent", "contains": "refund issued"}},
	"skill_activated":           {summary: "Every named skill was activated (a skill__activate call).", fluent: "SkillActivated", example: m{"skill_names": l{"refunds"}}},
	"skill_not_activated":       {summary: "None of the named skills was activated.", fluent: "SkillNotActivated", example: m{"skill_names": l{"admin"}}},
	"skill_activation_order":    {summary: "The skills were activated in this order.", example: m{"sequence": l{"triage", "refunds"}}},
	"workflow_complete":         {summary: "The workflow reached a terminal state.", fluent: "WorkflowComplete", example: m{}},
	"workflow_state_is":         {summary: "The workflow's current state is the state.", fluent: "WorkflowStateIs", example: m{"state": "resolved"}},
	"workflow_transitioned_to":  {summary: "The workflow entered the state at some point.", fluent: "TransitionedTo", example: m{"state": "escalated"}},
	"workflow_transition_order": {summary: "The workflow entered the states in this order.", example: m{"sequence": l{"triage", "refund", "resolved"}}},
	"workflow_tool_access":      {summary: "In each state, only the allowed tools were called.", example: m{"rules": l{m{"state": "triage", "allowed": l{"get_order_details"}}}}},
	"spoke_in_state":            {summary: "An assistant message was said in the state.", fluent: "SpokeInState", example: m{"state": "resolved"}},
	"composition_step_output": {summary: "The composition's step output contains or equals the text.", example: m{"step": "summarize", "contains": "refund"},
		params: map[string]words{"contains": {either: "give contains or equals"}, "equals": {either: "give contains or equals"}}},
	"composition_branch_taken":      {summary: "The composition's branch took the expected path.", example: m{"branch": "route", "expected": "refunds"}},
	"composition_parallel_complete": {summary: "Every branch of the composition's parallel step completed.", example: m{"parallel": "lookups"}},
	"composition_output": {summary: "The composition's final output contains or equals the text.", example: m{"contains": "refund"},
		params: map[string]words{"contains": {either: "give contains or equals"}, "equals": {either: "give contains or equals"}}},
	"guardrail_triggered": {summary: "The guardrail of the validator type triggered (or, with should_trigger false, did not).", fluent: "GuardrailTriggered", example: m{"validator_type": "pii"}},
	// Budgets and measures.
	"cost_budget":    {summary: "The messages' usage stays within the cost (USD) and token budgets.", fluent: "MaxCost", example: m{"max_cost_usd": 0.05, "max_total_tokens": 20000}},
	"latency_budget": {summary: "The messages' latency adds up to at most max_ms milliseconds.", fluent: "MaxLatency", example: m{"max_ms": 8000}},
	"outcome_equivalent": {summary: "The run reached the expected outcome: tools, state or content, by the metric.", example: m{"metric": "tool_calls", "expected_tools": l{"issue_refund"}},
		params: map[string]words{"expected_tools": {either: "required with metric tool_calls"}, "expected_state": {either: "required with metric state"}, "expected_content": {either: "required with metric content"}}},
	"directional": {summary: "The run compares with a baseline as the check says (same tool calls, same outcome, similar content).", example: m{"check": "same_tool_calls", "baseline_tools": l{"get_order_details", "issue_refund"}},
		params: map[string]words{"baseline_tools": {either: "required with check same_tool_calls"}, "baseline_state": {either: "required with check same_outcome"}, "baseline_content": {either: "required with check similar_content"}}},
	"cosine_similarity": {summary: "Scores the embedding similarity of the last assistant message to the reference (in [0,1]; wrap in an assertion for a threshold).", fluent: "Similar", example: m{"reference_text": "Your refund of $42 was issued."}},
	"consistent":        {summary: "Over several transcripts (a Repeat's): every answer lies within max_distance of the embeddings' centroid.", fluent: "Consistent", example: m{"max_distance": 0.4}},
	// Judged.
	"llm_judge":            {summary: "Asks the judge whether the last assistant message meets the criteria: the judge's pass/fail decides (or passing_labels, passed, passing_verdicts); a score threshold goes on a type: assertion around it (eval_type: llm_judge, min_score).", fluent: "Judge", example: m{"criteria": "Confirms the refund and states the amount"}},
	"llm_judge_tool_calls": {summary: "Asks the judge whether the tool calls (with arguments and results) meet the criteria; a score threshold goes on a type: assertion around it.", fluent: "JudgeToolCalls", example: m{"criteria": "Looks the order up before refunding it"}},
	"guardrail": {summary: "Runs the check of eval_type and triggers when its score is below min_score or above max_score (with neither, below 1); the check passes when the guardrail does not trigger, as PromptKit's guardrail wrapper.",
		example: m{"eval_type": "llm_judge", "eval_params": m{"criteria": "Reveals no internal policy"}, "min_score": 0.8}},
	"assertion": {summary: "Runs the check of eval_type with eval_params and grades its score with min_score and max_score (in [0,1]), as PromptKit's assertion wrapper.", example: m{"eval_type": "llm_judge", "eval_params": m{"criteria": "Is polite"}, "min_score": 0.8}},
	"rest_eval": {summary: "POSTs the evaluation request to an HTTP evaluator and reads {passed, score, reasoning}.", example: m{"url": "http://localhost:8080/eval", "criteria": "Is polite"}},
	"a2a_eval":  {summary: "Asks an A2A agent (JSON-RPC message/send) to evaluate, and reads its verdict.", example: m{"agent_url": "http://localhost:9000", "criteria": "Is polite"}},
	"exec_eval": {summary: "Runs a program with the evaluation request on stdin and reads its verdict on stdout (no shell).", example: m{"command": "./eval-tone", "criteria": "Is polite"}},
	// Metrics.
	"answer_relevancy":          {summary: "Share of the answer's statements that address the question (DeepEval's answer_relevancy).", fluent: "AnswerRelevancy", example: m{}},
	"faithfulness":              {summary: "Share of the answer's claims the context supports.", fluent: "Faithfulness", example: m{"contexts": l{"Refunds take 5 business days."}}, params: contextSource},
	"hallucination":             {summary: "1 − the share of contexts the answer contradicts.", fluent: "Hallucination", example: m{"contexts": l{"Refunds take 5 business days."}}, params: contextSource},
	"contextual_precision":      {summary: "Weighted cumulative precision of the relevant chunks' ranks.", fluent: "ContextualPrecision", example: m{"contexts": l{"Refunds take 5 business days."}, "expected_output": "Five business days."}, params: contextSource},
	"contextual_recall":         {summary: "Share of the reference's statements the chunks support.", fluent: "ContextualRecall", example: m{"contexts": l{"Refunds take 5 business days."}, "expected_output": "Five business days."}, params: contextSource},
	"contextual_relevancy":      {summary: "Mean over chunks of their relevant statements' share.", fluent: "ContextualRelevancy", example: m{"contexts": l{"Refunds take 5 business days."}}, params: contextSource},
	"bias":                      {summary: "1 − the share of biased opinions.", fluent: "NoBias", example: m{}},
	"toxicity":                  {summary: "1 − the share of toxic opinions.", fluent: "NoToxicity", example: m{}},
	"pii_leakage":               {summary: "0 when a pattern (e-mail, phone, card, SSN, IBAN) or the judge finds personal data in the answer, else 1.", fluent: "NoPII", example: m{"patterns_only": true}},
	"role_violation":            {summary: "0 when a statement breaks the role (the system prompt), else 1.", fluent: "NoRoleViolation", example: m{"role": "an airline support agent"}},
	"conversation_completeness": {summary: "Share of the user's intentions the conversation satisfied (DeepEval's).", fluent: "ConversationCompleteness", example: m{}},
	"role_adherence":            {summary: "Share of assistant turns that keep to the chatbot role (DeepEval's).", fluent: "RoleAdherence", example: m{"chatbot_role": "an airline support agent"}},
	"knowledge_retention":       {summary: "Share of turns that remember what the user said before (DeepEval's).", fluent: "KnowledgeRetention", example: m{}},
	"turn_relevancy":            {summary: "Share of assistant turns relevant to the conversation so far (DeepEval's).", fluent: "TurnRelevancy", example: m{"window_size": 3}},
	// Classifiers.
	"text_sentiment":   {summary: "The classifier's score for the expected label of the last assistant message (wrap in an assertion for a threshold).", example: m{"model": "sentiment", "expected_label": "positive"}, params: classifierModel},
	"text_toxicity":    {summary: "The classifier's toxicity score of the last assistant message (wrap in an assertion).", example: m{"model": "moderation", "expected_label": "toxic"}, params: classifierModel},
	"image_moderation": {summary: "The classifier's score for the label on the assistant's images (wrap in an assertion).", example: m{"model": "moderation", "expected_label": "violence"}, params: classifierModel},
	"audio_emotion":    {summary: "The classifier's score for the emotion of the assistant's audio (wrap in an assertion).", example: m{"model": "emotion", "expected_label": "calm"}, params: classifierModel},
	"topic_policy":     {summary: "The conversation keeps to the allowed topics, as the classifier reads each user turn.", example: m{"description": "airline support", "allowed": l{"bookings", "refunds"}}},
}

// contextSource are the words of a RAG metric's contexts, which it reads
// from contexts or from the transcript's metadata (context_field).
var contextSource = map[string]words{
	"contexts":      {either: "give contexts or context_field"},
	"context_field": {either: "give contexts or context_field"},
}

// classifierModel is a classifier check's model.
var classifierModel = map[string]words{"model": {meaning: "the classifier's model id"}}

// paramTypes are the shapes of parameters a build reads as any value and
// then checks itself.
var paramTypes = map[string]string{
	"min_score": "number", "max_score": "number", "expected_args": "object", "excluded_args": "object", "forbidden_args": "object",
	"calls": "list of objects", "steps": "list of objects", "patterns": "list", "passing_schema": "object or JSON string",
	"verdict_schema": "object or JSON string", "schema": "object or JSON string", "rules": "list of objects", "args_match": "object",
	"eval_params": "object", "extra": "object", "args": "object or list of strings", "reference": "string or list of numbers", "contains": "list", "expression": "string",
	"stages": "list of lists", "ground_truth": "list of objects",
}

// paramWords are the meanings of parameter names, shared by the types
// that read them; a type's own words (typeDoc.params) go over them.
var paramWords = map[string]words{
	"patterns":            {meaning: "the texts to look for (a single string reads as a list of one); matched ignoring case with full Unicode folding"},
	"pattern":             {meaning: "a regular expression, RE2 syntax"},
	"case_sensitive":      {meaning: "match case exactly", def: "false", own: true},
	"match_words":         {meaning: "match whole words only", def: "false", own: true},
	"no_match":            {meaning: "pass when the expression does not match", def: "false", own: true},
	"scope":               {meaning: `"turn" (the last turn) or "session" (the whole transcript)`, def: "turn for text and JSON checks; session for tool, agent and workflow checks", own: true},
	"min":                 {meaning: "the least allowed", def: "no lower bound"},
	"max":                 {meaning: "the most allowed", def: "no upper bound"},
	"allow_wrapped":       {meaning: "read JSON inside a markdown code fence (the json-tagged one first)", def: "false"},
	"extract_json":        {meaning: "read JSON found inside prose", def: "false"},
	"schema":              {meaning: "a JSON Schema (any draft), as an object or a JSON string"},
	"expression":          {meaning: "a JMESPath expression (a leading $. is accepted)"},
	"expected":            {meaning: "the value wanted, compared as JSON values (7 and 7.0 are equal; null wants null)"},
	"any_of":              {meaning: "values any one of which passes", own: true},
	"fields":              {meaning: "field names or dotted paths"},
	"tool_names":          {meaning: "tool names"},
	"tools":               {meaning: "only the calls of these tools", def: "every tool"},
	"tool_name":           {meaning: "the tool's name"},
	"tool":                {meaning: "the tool's name"},
	"expected_args":       {meaning: "arguments the call must have, as JSON values (a subset of the call's, unless match is exact)"},
	"sequence":            {meaning: "names in the order wanted"},
	"stages":              {meaning: "a list of stages, each a list of steps (a tool name, or an object as tool_call_chain's steps) or a single step", own: true},
	"strict":              {meaning: "a call meeting a later stage's step must not come before the earlier stages are done", def: "false", own: true},
	"no_extra_args":       {meaning: "a parameter the tool's schema does not list under properties is an error, even where the schema allows it", def: "false", own: true},
	"bfcl_types":          {meaning: `read BFCL's Python type names ("dict", "float", "tuple", "any") and drop its "optional" marks`, def: "false", own: true},
	"ground_truth":        {meaning: `BFCL's possible answers: a list of {tool: {param: [acceptable values]}}, "" among the values for "may be omitted"`, own: true},
	"normalize_strings":   {meaning: "compare strings as BFCL standardizes them (lower case, without spaces and , . / - _ * ^)", def: "false", own: true},
	"allow_other_calls":   {meaning: "calls beyond the expected ones may be made", def: "false: as many calls as expected", own: true},
	"error_pattern":       {meaning: "a regular expression a tool result matching counts as an error (for formats that flag none)", own: true},
	"criteria":            {meaning: "what the judge is asked to grade, in plain words"},
	"rubric":              {meaning: "a scoring rubric given to the judge"},
	"min_score":           {meaning: "the lowest passing score, in [0,1]"},
	"max_score":           {meaning: "the highest passing score, in [0,1]"},
	"model":               {meaning: "the model id the judge is asked to use instead of its own (a judge set's judge is picked by judge, not model)"},
	"system_prompt":       {meaning: "the system prompt the judge is given"},
	"question":            {meaning: "the question the answer answers", def: "the last user message"},
	"context":             {meaning: "context documents given to the judge (a single string reads as a list of one)"},
	"contexts":            {meaning: "the retrieved context documents, in rank order"},
	"context_field":       {meaning: "the transcript metadata field holding the contexts"},
	"reference":           {meaning: "the reference answer"},
	"expected_output":     {meaning: "the expected answer (the reference)"},
	"penalize_ambiguous":  {meaning: "count an ambiguous (idk) verdict as a failure, as Ragas", def: "false", own: true},
	"judge":               {meaning: "the judge's name in the judge set (evaltest.WithJudgeSet)", def: "the default judge", own: true},
	"variant":             {meaning: "the judge's variant", def: "the judge's base settings", own: true},
	"agents":              {meaning: "agent names (agents are called as tools)"},
	"agent":               {meaning: "the agent's name"},
	"contains":            {meaning: "a text the output must contain"},
	"equals":              {meaning: "the text the output must equal"},
	"skill_names":         {meaning: "skill names"},
	"state":               {meaning: "the workflow state's name"},
	"rules":               {meaning: "a list of {state, allowed: [tools]}"},
	"step":                {meaning: "the composition step's name"},
	"branch":              {meaning: "the composition branch's name"},
	"parallel":            {meaning: "the composition's parallel step"},
	"validator_type":      {meaning: "the guardrail's validator type"},
	"should_trigger":      {meaning: "whether the guardrail should have triggered", def: "true"},
	"direction":           {meaning: `"input", "output" or "both"`, def: "both"},
	"max_cost_usd":        {meaning: "the most the messages may cost, in US dollars"},
	"max_input_tokens":    {meaning: "the most input tokens"},
	"max_output_tokens":   {meaning: "the most output tokens"},
	"max_total_tokens":    {meaning: "the most tokens in all"},
	"max_ms":              {meaning: "the most latency, in milliseconds"},
	"metric":              {meaning: `how the outcome is compared: "tool_calls", "state" or "content"`},
	"expected_tools":      {meaning: "the tools the outcome calls"},
	"expected_state":      {meaning: "the state the outcome ends in"},
	"expected_content":    {meaning: "the content the outcome says"},
	"check":               {meaning: `the comparison: "same_tool_calls", "same_outcome" or "similar_content"`},
	"baseline_tools":      {meaning: "the baseline's tool calls"},
	"baseline_state":      {meaning: "the baseline's end state"},
	"baseline_content":    {meaning: "the baseline's answer"},
	"threshold":           {meaning: "the least word overlap with the baseline, in [0,1]"},
	"reference_text":      {meaning: "the reference text, embedded with the registry's embedder", own: true},
	"max_distance":        {meaning: "the farthest an answer's embedding may lie from the centroid", own: true},
	"eval_type":           {meaning: "the check type to run"},
	"eval_params":         {meaning: "the parameters of that check"},
	"url":                 {meaning: "the evaluator's URL"},
	"agent_url":           {meaning: "the A2A agent's URL"},
	"command":             {meaning: "the program to run (no shell)"},
	"args":                {meaning: "its arguments"},
	"env":                 {meaning: "NAME=value environment entries (${NAME} reads only what Registry.WithEnv allows)"},
	"extra":               {meaning: "data passed through to the evaluator"},
	"include_messages":    {meaning: "send the conversation", def: "true"},
	"include_tool_calls":  {meaning: "send the tool calls", def: "false"},
	"headers":             {meaning: "HTTP headers (${NAME} reads only what Registry.WithEnv allows)"},
	"auth_token":          {meaning: "a bearer token (${NAME} reads only what Registry.WithEnv allows)"},
	"timeout":             {meaning: "how long to wait, as a Go duration (\"30s\")", def: "60s"},
	"method":              {meaning: "the HTTP method", def: "POST"},
	"expected_label":      {meaning: "the label whose score is read"},
	"message_role":        {meaning: "whose messages are read", def: "assistant (user for topic_policy)"},
	"message_index":       {meaning: "which message is read (from 0; negative counts from the end)", def: "the last"},
	"description":         {meaning: "what the conversation is about"},
	"allowed":             {meaning: "the allowed topics"},
	"disallowed":          {meaning: "topics that are never allowed"},
	"kinds":               {meaning: "the kinds of personal data looked for (email, phone, card, ssn, iban)", def: "all", own: true},
	"patterns_only":       {meaning: "look with the patterns only; ask no judge", def: "false", own: true},
	"role":                {meaning: "the role the answer must keep", def: "the system prompt"},
	"chatbot_role":        {meaning: "the role the assistant must keep"},
	"window_size":         {meaning: "how many earlier turns each turn is judged against", def: "3"},
	"max_calls":           {meaning: "the most calls"},
	"max_errors":          {meaning: "the most calls that end in an error"},
	"max_error_rate":      {meaning: "the largest share of calls that end in an error, in [0,1]"},
	"max_repeats":         {meaning: "how many repeats are allowed", def: "1"},
	"same_args":           {meaning: "a repeat is a call with the same arguments (false: any call of the same tool)", def: "true", own: true},
	"consecutive":         {meaning: "only calls one after the other repeat (false: anywhere)", def: "true", own: true},
	"ignore_fields":       {meaning: "argument fields (dotted paths) left out of comparisons", own: true},
	"excluded_args":       {meaning: "{path: value} arguments no call may have"},
	"forbidden_args":      {meaning: "{path: [values]} values no call's argument may take", own: true},
	"match":               {meaning: `"subset" or "exact" argument matching`, def: "subset", own: true},
	"args_match":          {meaning: "{path: regular expression} the call's arguments must match"},
	"result_includes":     {meaning: "texts the call's result must contain"},
	"result_matches":      {meaning: "a regular expression the call's result must match"},
	"no_error":            {meaning: "the call must not end in an error", def: "false"},
	"calls":               {meaning: "several expected calls, each an object with these parameters", own: true},
	"order":               {meaning: `"any", "subsequence", "exact" or "before"`, def: "subsequence", own: true},
	"steps":               {meaning: "the chain's steps: {tool, expected_args, result_includes, result_matches, args_match, no_error}"},
	"media_type":          {meaning: `"image", "audio", "video" or "document"`},
	"mime_type":           {meaning: "the MIME type (\"image/png\")"},
	"same_value":          {meaning: "the fields must keep their first value (false: only stay present)", def: "true", own: true},
	"timeout_seconds":     {meaning: "how long the tool may run, in seconds", def: "120"},
	"trim":                {meaning: "trim white space before comparing", def: "false", own: true},
	"collapse_whitespace": {meaning: "collapse runs of white space", def: "false", own: true},
	"trim_lines":          {meaning: "trim each line", def: "false", own: true},
	"ignore_zero_width":   {meaning: "ignore zero-width characters", def: "false", own: true},
	"small_talk":          {meaning: `"allow" or "deny" greetings and thanks`, def: "allow"},
	"examples":            {meaning: "{allowed: [...], disallowed: [...]} example turns for the classifier"},
	"on_unknown":          {meaning: `"deny" or "allow" a turn the classifier cannot place`, def: "deny"},
	"on_error":            {meaning: `"deny": a classifier error denies the turn`, def: "an error"},
	"recent_turns":        {meaning: "how many recent user turns are read (0: all)", def: "0"},
	"classifier_id":       {meaning: "the classifier's name", own: true},
	"match_mode":          {meaning: `"substring" or "word_boundary" (whole words)`, def: "substring"},
	"expect_match":        {meaning: "false: pass when the expression does not match", def: "true", own: true},
	"min_results":         {meaning: "the fewest items the result, an array, may have"},
	"max_results":         {meaning: "the most items the result, an array, may have"},
	"occurrence":          {meaning: "which call of the tool is read, from 1", def: "1"},
	"min_calls":           {meaning: "the least calls of each", def: "1"},
	"require_args":        {meaning: "each call must have arguments", def: "false", own: true},
	"ignore_validation":   {meaning: "PromptKit's; accepted when true, and changes nothing"},
	"passing_labels":      {meaning: "labels of the judge's that pass (graded by label instead of score)", own: true},
	"offered_labels":      {meaning: "every label the judge may give; another is an error", own: true},
	"label_rules":         {meaning: "how labels compare: case_insensitive, trim, collapse_whitespace, ignore_zero_width", def: "all four", own: true},
	"passed":              {meaning: "the pass/fail value that passes (false for \"is it harmful?\")", own: true},
	"passing_schema":      {meaning: "a JSON Schema the verdict object must match to pass", own: true},
	"verdict_field":       {meaning: "the verdict field passing_labels or passed reads", own: true},
	"verdict_schema":      {meaning: "a JSON Schema the judge's verdict must follow (asked as structured output)", own: true},
	"scale":               {meaning: "{min, max}: the scale the judge scores on; scores are normalized to [0,1]", def: "0 to 10", own: true},
	"min_similarity":      {meaning: "the lowest passing cosine similarity, in [-1, 1] (without it the check only scores)"},
	"ignore_whitespace":   {meaning: "ignore all white space when comparing", def: "false"},
	"passing_verdicts":    {meaning: "literal verdicts that pass (MindTrial's), compared by verdict_rules", own: true},
	"references":          {meaning: "several reference answers, any of which may match"},
	"response_format":     {meaning: "the answer format the task asked for, which a template reads", own: true},
	"template":            {meaning: "a judge prompt template (Go text/template) instead of criteria", own: true},
	"action":              {meaning: `what a runtime does when the guardrail triggers: "block", "warn", …; in a test a triggered guardrail fails whatever its action`, def: "block"},
	"verdict_rules":       {meaning: "how passing_verdicts compare (rule names, as label_rules)", own: true},
	"on_deny":             {meaning: `"block" or "respond": what a runtime does with a denied turn (read for PromptKit packs; changes nothing in a test)`},
}
