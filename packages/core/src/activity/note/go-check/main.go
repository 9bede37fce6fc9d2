// Command go-check is the outside check of Latchkey's checkpoint notes: Go's own
// golang.org/x/mod/sumdb/note opens the notes, and a C2SP tlog-cosignature/v1 is made and
// verified here from the spec with Go's crypto/ed25519 (x/mod has no cosignature code).
//
// Input (stdin, JSON): {"vkey", "notes": [...], "witness": {"name", "seed"}, "cosign": note, "time"}.
// Output (stdout, JSON): for each note, whether note.Open accepted it and the error; the
// cosignature line made for "cosign"; for each note, the timestamps of the witness's valid
// cosignatures in it.
package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"golang.org/x/mod/sumdb/note"
)

type input struct {
	Vkey    string   `json:"vkey"`
	Notes   []string `json:"notes"`
	Witness struct {
		Name string `json:"name"`
		Seed string `json:"seed"`
	} `json:"witness"`
	Cosign string `json:"cosign"`
	Time   uint64 `json:"time"`
}

type opened struct {
	OK           bool     `json:"ok"`
	Error        string   `json:"error,omitempty"`
	Text         string   `json:"text,omitempty"`
	Cosignatures []uint64 `json:"cosignatures"`
}

func witnessKeyHash(name string, pub ed25519.PublicKey) []byte {
	h := sha256.Sum256(append(append([]byte(name+"\n"), 0x04), pub...))
	return h[:4]
}

func cosignedMessage(text string, t uint64) []byte {
	return []byte(fmt.Sprintf("cosignature/v1\ntime %d\n%s", t, text))
}

// cosignatures returns the timestamps of the valid cosignatures by (name, pub) in msg.
func cosignatures(msg []byte, name string, pub ed25519.PublicKey) []uint64 {
	out := []uint64{}
	split := bytes.LastIndex(msg, []byte("\n\n"))
	if split < 0 {
		return out
	}
	text := string(msg[:split+1])
	for _, line := range strings.Split(strings.TrimSuffix(string(msg[split+2:]), "\n"), "\n") {
		fields := strings.Split(strings.TrimPrefix(line, "— "), " ")
		if len(fields) != 2 || fields[0] != name {
			continue
		}
		value, err := base64.StdEncoding.DecodeString(fields[1])
		if err != nil || len(value) != 4+8+64 || !bytes.Equal(value[:4], witnessKeyHash(name, pub)) {
			continue
		}
		t := binary.BigEndian.Uint64(value[4:12])
		if ed25519.Verify(pub, cosignedMessage(text, t), value[12:]) {
			out = append(out, t)
		}
	}
	return out
}

func main() {
	var in input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		panic(err)
	}
	verifier, err := note.NewVerifier(in.Vkey)
	if err != nil {
		panic(err)
	}
	seed, err := base64.StdEncoding.DecodeString(in.Witness.Seed)
	if err != nil {
		panic(err)
	}
	priv := ed25519.NewKeyFromSeed(seed)
	pub := priv.Public().(ed25519.PublicKey)
	results := []opened{}
	for _, msg := range in.Notes {
		n, err := note.Open([]byte(msg), note.VerifierList(verifier))
		r := opened{Cosignatures: cosignatures([]byte(msg), in.Witness.Name, pub)}
		if err != nil {
			r.Error = err.Error()
		} else {
			r.OK = len(n.Sigs) == 1
			r.Text = n.Text
		}
		results = append(results, r)
	}
	line := ""
	if in.Cosign != "" {
		value := make([]byte, 12, 76)
		copy(value, witnessKeyHash(in.Witness.Name, pub))
		binary.BigEndian.PutUint64(value[4:], in.Time)
		value = append(value, ed25519.Sign(priv, cosignedMessage(in.Cosign, in.Time))...)
		line = "— " + in.Witness.Name + " " + base64.StdEncoding.EncodeToString(value)
	}
	vkey, _ := note.NewEd25519VerifierKey(in.Witness.Name, pub)
	json.NewEncoder(os.Stdout).Encode(map[string]interface{}{
		"opened":      results,
		"cosignature": line,
		// NewEd25519VerifierKey writes algorithm 0x01; a witness's cosignature vkey has 0x04.
		"witness_public_key":   base64.StdEncoding.EncodeToString(pub),
		"witness_ed25519_vkey": vkey,
	})
}
