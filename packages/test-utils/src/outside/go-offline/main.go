// Command go-offline checks Latchkey's evidence the way an outsider would, offline, from files
// alone: the log's verifier key (pinned out of band, one line in a file) and the evidence files.
// Go's own golang.org/x/mod/sumdb/note opens each checkpoint note and golang.org/x/mod/sumdb/tlog
// checks each inclusion proof against the tree head the note signs. The leaf data of an event is
// its RFC 8785 canonical JSON, written here from the spec, not taken from Latchkey's code.
//
// Usage: go-offline VKEY_FILE (tlog-proof|export) FILE...
//   tlog-proof: a c2sp.org/tlog-proof@v1 file whose extra data is the event's canonical JSON.
//   export:     an NDJSON export whose events each have their {"inclusion": ...} line, ending with
//               the {"checkpoint": {..., "note"}} line.
// Prints a JSON array, one verdict per file: {"file", "ok", "error", "entries", "tree_size", "origin"}.
package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type verdict struct {
	File     string `json:"file"`
	OK       bool   `json:"ok"`
	Error    string `json:"error,omitempty"`
	Entries  int    `json:"entries"`
	TreeSize int64  `json:"tree_size"`
	Origin   string `json:"origin,omitempty"`
}

type head struct {
	origin string
	size   int64
	root   tlog.Hash
}

var decimal = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)

// openCheckpoint opens a checkpoint note with the pinned key and reads its tree head
// (c2sp.org/tlog-checkpoint: origin line, decimal size, base64 root hash).
func openCheckpoint(msg []byte, verifier note.Verifier) (head, error) {
	n, err := note.Open(msg, note.VerifierList(verifier))
	if err != nil {
		return head{}, fmt.Errorf("note.Open: %w", err)
	}
	lines := strings.Split(strings.TrimSuffix(n.Text, "\n"), "\n")
	if len(lines) < 3 || lines[0] != verifier.Name() || !decimal.MatchString(lines[1]) {
		return head{}, errors.New("the note is not this log's checkpoint")
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil {
		return head{}, err
	}
	root, err := tlog.ParseHash(lines[2])
	if err != nil {
		return head{}, err
	}
	return head{origin: lines[0], size: size, root: root}, nil
}

func parseHashes(lines []string) (tlog.RecordProof, error) {
	proof := tlog.RecordProof{}
	for _, line := range lines {
		h, err := tlog.ParseHash(line)
		if err != nil {
			return nil, fmt.Errorf("proof hash %q: %w", line, err)
		}
		proof = append(proof, h)
	}
	return proof, nil
}

// checkTlogProof checks a c2sp.org/tlog-proof@v1 file: header, optional extra, index, hashes, an
// empty line, then the checkpoint verbatim.
func checkTlogProof(text []byte, verifier note.Verifier) (verdict, error) {
	split := bytes.Index(text, []byte("\n\n"))
	if split < 0 {
		return verdict{}, errors.New("no empty line before the checkpoint")
	}
	lines := strings.Split(string(text[:split]), "\n")
	if lines[0] != "c2sp.org/tlog-proof@v1" {
		return verdict{}, errors.New("not a c2sp.org/tlog-proof@v1")
	}
	lines = lines[1:]
	var extra []byte
	if len(lines) > 0 && strings.HasPrefix(lines[0], "extra ") {
		var err error
		if extra, err = base64.StdEncoding.DecodeString(strings.TrimPrefix(lines[0], "extra ")); err != nil {
			return verdict{}, err
		}
		lines = lines[1:]
	}
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "index ") || !decimal.MatchString(lines[0][6:]) {
		return verdict{}, errors.New("no index line")
	}
	index, err := strconv.ParseInt(lines[0][6:], 10, 64)
	if err != nil {
		return verdict{}, err
	}
	proof, err := parseHashes(lines[1:])
	if err != nil {
		return verdict{}, err
	}
	h, err := openCheckpoint(text[split+2:], verifier)
	if err != nil {
		return verdict{}, err
	}
	// The extra data is not authenticated by itself: the record hash of the proof is.
	var event struct {
		Seq int64 `json:"seq"`
	}
	if err := json.Unmarshal(extra, &event); err != nil || event.Seq != index+1 {
		return verdict{}, errors.New("the extra data is not the event at this index")
	}
	if err := tlog.CheckRecord(proof, h.size, h.root, index, tlog.RecordHash(extra)); err != nil {
		return verdict{}, fmt.Errorf("tlog.CheckRecord: %w", err)
	}
	return verdict{Entries: 1, TreeSize: h.size, Origin: h.origin}, nil
}

type inclusion struct {
	Seq       int64    `json:"seq"`
	LeafIndex int64    `json:"leaf_index"`
	TreeSize  int64    `json:"tree_size"`
	Hashes    []string `json:"hashes"`
}

type line struct {
	Checkpoint *struct {
		Note string `json:"note"`
	} `json:"checkpoint"`
	Inclusion *inclusion `json:"inclusion"`
	Seq       int64      `json:"seq"`
}

// checkExport checks a filtered export: each event's canonical JSON is a leaf of the tree the
// closing line's note signs, by the inclusion line after it.
func checkExport(text []byte, verifier note.Verifier) (verdict, error) {
	lines := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	var last line
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || last.Checkpoint == nil {
		return verdict{}, errors.New("the export does not end with its checkpoint line")
	}
	h, err := openCheckpoint([]byte(last.Checkpoint.Note), verifier)
	if err != nil {
		return verdict{}, err
	}
	events := lines[:len(lines)-1]
	if len(events)%2 != 0 {
		return verdict{}, errors.New("an event without its inclusion line")
	}
	for i := 0; i < len(events); i += 2 {
		data, seq, err := canonical([]byte(events[i]))
		if err != nil {
			return verdict{}, fmt.Errorf("line %d: %w", i+1, err)
		}
		var next line
		if err := json.Unmarshal([]byte(events[i+1]), &next); err != nil || next.Inclusion == nil {
			return verdict{}, fmt.Errorf("line %d is not an inclusion line", i+2)
		}
		p := next.Inclusion
		if p.Seq != seq || p.LeafIndex != seq-1 || p.TreeSize != h.size {
			return verdict{}, fmt.Errorf("line %d proves another leaf or tree", i+2)
		}
		proof, err := parseHashes(p.Hashes)
		if err != nil {
			return verdict{}, err
		}
		if err := tlog.CheckRecord(proof, h.size, h.root, p.LeafIndex, tlog.RecordHash(data)); err != nil {
			return verdict{}, fmt.Errorf("line %d: tlog.CheckRecord: %w", i+1, err)
		}
	}
	return verdict{Entries: len(events) / 2, TreeSize: h.size, Origin: h.origin}, nil
}

func main() {
	if len(os.Args) < 4 {
		fmt.Fprintln(os.Stderr, "usage: go-offline VKEY_FILE (tlog-proof|export) FILE...")
		os.Exit(2)
	}
	vkey, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	verifier, err := note.NewVerifier(strings.TrimSpace(string(vkey)))
	if err != nil {
		panic(err)
	}
	check := map[string]func([]byte, note.Verifier) (verdict, error){
		"tlog-proof": checkTlogProof,
		"export":     checkExport,
	}[os.Args[2]]
	if check == nil {
		fmt.Fprintln(os.Stderr, "the kind is tlog-proof or export")
		os.Exit(2)
	}
	out := []verdict{}
	for _, file := range os.Args[3:] {
		text, err := os.ReadFile(file)
		if err != nil {
			panic(err)
		}
		v, err := check(text, verifier)
		v.File, v.OK = file, err == nil
		if err != nil {
			v.Error = err.Error()
		}
		out = append(out, v)
	}
	w := bufio.NewWriter(os.Stdout)
	json.NewEncoder(w).Encode(out)
	w.Flush()
}
