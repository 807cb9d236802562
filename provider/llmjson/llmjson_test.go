package llmjson

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/crucible-go/crucible/provider"
	"github.com/crucible-go/crucible/provider/providertest"
)

type verdict struct {
	Verdict  string `json:"verdict"`
	Evidence string `json:"evidence"`
}

func TestExtract(t *testing.T) {
	tests := []struct {
		name, reply string
		want        verdict
		wantErr     string
	}{
		{"fenced", "Here you go:\n```json\n{\"verdict\": \"MET\", \"evidence\": \"L3\"}\n```\nThanks.", verdict{"MET", "L3"}, ""},
		{"last fence wins", "```json\n{\"verdict\": \"NOT MET\"}\n```\nCorrection:\n```json\n{\"verdict\": \"MET\"}\n```", verdict{Verdict: "MET"}, ""},
		{"bare", " {\"verdict\": \"MET\"} ", verdict{Verdict: "MET"}, ""},
		{"unlabelled fence", "```\n{\"verdict\": \"MET\"}\n```", verdict{Verdict: "MET"}, ""},
		{"prose only", "I think it is met.", verdict{}, "no ```json block"},
		{"unknown field ignored", "```json\n{\"verdict\": \"MET\", \"extra\": 1}\n```", verdict{Verdict: "MET"}, ""},
		{"other fences skipped", "```go\nfmt.Println()\n```\n```json\n{\"verdict\": \"MET\"}\n```\n```text\nbye\n```", verdict{Verdict: "MET"}, ""},
		// a complete value in an unclosed fence is still the answer: truncation is told by the finish reason
		{"unclosed fence", "```json\n{\"verdict\": \"MET\"}", verdict{Verdict: "MET"}, ""},
		{"unclosed fence, cut value", "```json\n{\"verdict\": \"ME", verdict{}, "no ```json block"},
		{"trailing commas", "```json\n{\"verdict\": \"MET\", \"evidence\": \"L3\",}\n```", verdict{"MET", "L3"}, ""},
		{"comments", "```json\n{\"verdict\": \"MET\" // as shown\n}\n```", verdict{Verdict: "MET"}, ""},
		{"trailing comma in prose", "Answer: {\"verdict\": \"MET\",} done", verdict{Verdict: "MET"}, ""},
		{"fence inside a JSON string", "```json\n{\"verdict\": \"MET\", \"evidence\": \"use ``` fences\"}\n```", verdict{Verdict: "MET", Evidence: "use ``` fences"}, ""},
		{"prose around bare JSON", "My answer: {\"verdict\": \"MET\"} — hope that helps.", verdict{Verdict: "MET"}, ""},
		{"think draft ignored", "<think>draft:\n```json\n{\"verdict\": \"NOT MET\"}\n```\n</think>\n{\"verdict\": \"MET\"}", verdict{Verdict: "MET"}, ""},
		{"unclosed think is no answer", "<think>```json\n{\"verdict\": \"MET\"}\n```", verdict{}, "no ```json block"},
		{"trailing data", "{\"verdict\": \"MET\"} {\"verdict\": \"NOT MET\"}", verdict{}, "data after its value"},
		{"broken", "```json\n{\"verdict\": \n```", verdict{}, "does not decode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v verdict
			err := Extract(tt.reply, &v)
			if tt.wantErr != "" {
				require.ErrorIs(t, err, ErrInvalidReply)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, v)
		})
	}
}

func TestAskRetriesOnceWithTheProblem(t *testing.T) {
	fake := providertest.NewFake()
	fake.On().Reply("```json\n{\"verdict\": \"MAYBE\", \"evidence\": \"x\"}\n```").Once()
	fake.On(providertest.Contains("verdict must be MET or NOT MET")).Reply("```json\n{\"verdict\": \"MET\"}\n```")
	req := provider.Request{Model: "m", Messages: []provider.Message{{Role: provider.RoleUser, Content: "judge"}}}
	var v verdict
	validate := func() error {
		if v.Verdict != "MET" && v.Verdict != "NOT MET" {
			return errors.New("verdict must be MET or NOT MET")
		}
		return nil
	}
	resps, err := Ask(context.Background(), fake, req, &v, validate)
	require.NoError(t, err)
	assert.Len(t, resps, 2)
	assert.Equal(t, verdict{Verdict: "MET"}, v, "nothing from the first attempt survives")
	calls := fake.Calls()
	require.Len(t, calls, 2)
	assert.Len(t, calls[1].Request.Messages, 3, "the retry carries the bad reply and the problem")
	assert.Len(t, req.Messages, 1, "the caller's request is not modified")
}

func TestAskGivesUpAfterOneRetry(t *testing.T) {
	fake := providertest.NewFake()
	fake.On().Reply("no json here")
	var v verdict
	resps, err := Ask(context.Background(), fake, provider.Request{Model: "m", Messages: []provider.Message{{Role: provider.RoleUser, Content: "x"}}}, &v, nil)
	require.ErrorIs(t, err, ErrInvalidReply)
	var re *ReplyError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, "no json here", re.Reply)
	assert.Len(t, resps, 2)
	assert.Equal(t, 2, fake.CallCount())
}

func TestAskPassesProviderErrors(t *testing.T) {
	fake := providertest.NewFake()
	fake.On().Fail(&provider.Error{Kind: provider.ErrRateLimited})
	var v verdict
	_, err := Ask(context.Background(), fake, provider.Request{Model: "m", Messages: []provider.Message{{Role: provider.RoleUser, Content: "x"}}}, &v, nil)
	assert.ErrorIs(t, err, provider.ErrRateLimited)
	assert.Equal(t, 1, fake.CallCount())
}

func FuzzExtract(f *testing.F) {
	f.Add("```json\n{\"verdict\": \"MET\"}\n```")
	f.Add("{")
	f.Add("```\n```")
	f.Fuzz(func(t *testing.T, reply string) {
		var v verdict
		if err := Extract(reply, &v); err != nil && !errors.Is(err, ErrInvalidReply) {
			t.Fatalf("untyped error %v", err)
		}
	})
}

func TestIntAcceptsNumbersAsStrings(t *testing.T) {
	tests := []struct {
		in      string
		want    Int
		wantErr bool
	}{
		{`80`, 80, false}, {`"80"`, 80, false}, {`"80%"`, 80, false}, {`" 75 "`, 75, false}, {`80.0`, 80, false},
		{`"high"`, 0, true}, {`80.5`, 0, true}, {`true`, 0, true},
	}
	for _, tt := range tests {
		var n Int
		err := json.Unmarshal([]byte(tt.in), &n)
		if tt.wantErr {
			assert.Error(t, err, tt.in)
			continue
		}
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, n, tt.in)
	}
}

func FuzzStripReasoning(f *testing.F) {
	f.Add("<think>draft {\"a\": 1}</think>{\"a\": 2}")
	f.Add("<thinking>")
	f.Add("I'm sorry, I can't.")
	f.Fuzz(func(t *testing.T, reply string) {
		out := StripReasoning(reply)
		if len(out) > len(reply) {
			t.Fatalf("StripReasoning grew %q to %q", reply, out)
		}
		_ = IsRefusal(out)
		var v map[string]any
		if err := Extract(reply, &v); err != nil && !errors.Is(err, ErrInvalidReply) {
			t.Fatalf("untyped error %v", err)
		}
	})
}
