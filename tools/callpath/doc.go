// Package callpath runs a tool's tools/call as go-sdk's typed tool path
// would — arguments decoded and checked against the input schema with its
// defaults, the handler, its result checked against the output schema and
// sent as structured content — in fewer steps. On 2026-12-06 (six runs of
// BenchmarkCallPath at the repository root, 400 rounds each, on a loaded
// 2-core machine) it made a read tool's round trip shorter than on go-sdk's
// own path by a median of 0.14 ms (list_sessions, 13%), 0.17 ms
// (list_panes, 12%), 0.14 ms (get_pane_info, 10%), 0.12 ms (snapshot_pane,
// 10%) and 0.04 ms (capture_pane, 4%).
//
// What it saves, against go-sdk's mcp.AddTool: the arguments are decoded
// once into an object and once into the handler's type with encoding/json
// (go-sdk's internal decoder takes a fresh 32 KiB buffer per value); a
// fast checker compiled from each schema (check.go) answers most
// validations, leaving jsonschema-go's Validate to word the refusals; and
// a result whose type marshals canonically (canonical.go) is marshalled
// once, its object built by reflection for the check and the text block,
// where go-sdk marshals, decodes and marshals again.
//
// # Contract with go-sdk
//
// It is written against github.com/modelcontextprotocol/go-sdk v1.8.0 and
// github.com/google/jsonschema-go v0.4.3, and must answer byte for byte as
// they do: the same structured content (keys sorted), the same refusals in
// the same words, the same JSON-RPC errors. On an upgrade of either, re-read
// in the go-sdk module:
//
//   - mcp/server.go: toolForErr (the typed handler: argument and output
//     steps, error wording, *jsonrpc.Error passed through, content never
//     null) and setSchema (how schemas are resolved: ValidateDefaults);
//   - mcp/tool.go: applySchema (decode into a map, apply defaults,
//     validate, marshal), and the wording of each step's error;
//   - internal/json: its decoder's options (go-sdk decodes arguments with
//     segmentio/encoding, case-sensitive keys; sdkDecodeError words a
//     non-object as it does);
//
// and in jsonschema-go: validate.go (check.go follows its rules keyword by
// keyword) and infer/resolve for defaults.
//
// Tests that hold it equal: TestCallPathAnswersAsTheSDK (repository root:
// the same tools/call lines to a server on this path and one on go-sdk's,
// TMUX_MCP_SDK_CALLS=1, byte-equal replies); CI's exec leg runs every
// golden with TMUX_MCP_SDK_CALLS=1; here TestArgumentsAsTheSDKWordsThem,
// TestStructuredSortsKeys, TestAgreesWithJSONSchemaGo (with its fuzz
// target) and TestCanonicalMarshalsOnce.
//
// [AddSDK] registers a tool on go-sdk's own path, for that test and the
// benchmark. Measured on 2026-12-06 beside it and removed: a transport that
// answered plain tools/calls past go-sdk's request path (medians 0.03–0.10
// ms, 3–8% of a read) and a JSON-RPC codec of our own (it saved nothing:
// medians −0.05 to 0 ms).
package callpath
