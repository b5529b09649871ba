package evalkit

import (
	"strings"

	"github.com/evalkit-go/evalkit/internal/jsonx"
)

// ParseVerdictFor reads the verdict a judge wrote in answer to req. A
// request with a Format is read by that format's rule (req.Format.Parse on
// req.Scale.OrDefault()). For a request with neither a Format nor a
// VerdictSchema it is ParseVerdict(raw, req.Scale).
//
// For a request with one — structured output, as a metric step asks for
// its items (JudgeRequest.Metric) — an answer that is one JSON object and
// nothing else (the whole text, or the one ```json fence that is the whole
// text) is the verdict even when it has no score, label or pass field:
// its Fields are the object (numbers as json.Number) and its Reasoning the
// first reasoning field, with Scored false. The caller validates the
// fields against the schema. Verdict fields it does have are read as
// ParseVerdict reads them, errors included. Any other answer is read by
// ParseVerdict: JSON in prose is never trusted without a verdict field.
func ParseVerdictFor(req JudgeRequest, raw string) (Verdict, error) {
	if req.Format != nil {
		if err := req.Scale.OrDefault().Validate(); err != nil {
			return Verdict{}, err
		}
		v, err := req.Format.Parse(raw, req.Scale.OrDefault())
		if err != nil {
			return Verdict{}, err
		}
		v.Raw = raw
		return v, nil
	}
	if len(req.VerdictSchema) == 0 {
		return ParseVerdict(raw, req.Scale)
	}
	scale := req.Scale.OrDefault()
	if err := scale.Validate(); err != nil {
		return Verdict{}, err
	}
	fs, err := jsonx.Fences(raw)
	if err != nil {
		return ParseVerdict(raw, req.Scale)
	}
	found, err := jsonx.ExtractFenced(raw, fs, jsonx.Wrapped)
	if err != nil || !isAlone(raw, fs, found) || !isObject(found.JSON) {
		return ParseVerdict(raw, req.Scale)
	}
	_, hasVerdict, err := readObject(found.JSON, scale, func() string { return found.From })
	if err != nil || hasVerdict {
		return ParseVerdict(raw, req.Scale)
	}
	fields, _, err := decodeObject(found.JSON)
	if err != nil {
		return Verdict{}, unreadable("the JSON object in %s: %v", found.From, err)
	}
	v := Verdict{Fields: fields, Raw: raw}
	for _, k := range reasoningKeys {
		if s, ok := fields[k].(string); ok && strings.TrimSpace(s) != "" {
			v.Reasoning = s
			break
		}
	}
	return v, nil
}
