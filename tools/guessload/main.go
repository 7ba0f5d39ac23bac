// Command guessload measures how fast invite codes can be guessed (issue 39, "Invite codes can be
// guessed"). Against a running server that trusts this client's X-Forwarded-For (TRUSTED_PROXIES),
// it sends POST /v1/games/join with random codes of the server's length from -addresses addresses
// (IPv4, each its own IPv6 /64 with -ipv6, or all in one /64 with -same64), -workers at once per address, each request with a
// fresh made-up bearer token (-tokens=false: none). A warm-up phase first spends what budgets
// start with (until every address has been refused for its own budget, not the instance's, or
// -warmup has passed); then for
// -duration it counts the guesses the server evaluated (404 invite_code_not_found: the code was
// looked up) and those it refused (429), and prints the guesses a minute and the expected time to
// get into any of -lobbies open lobbies: codes ÷ lobbies ÷ guesses a minute.
// scripts/guesses.sh starts a server on a fresh database and runs it.
package main

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

const alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

func main() {
	base := flag.String("url", "http://127.0.0.1:8080", "the server")
	addresses := flag.Int("addresses", 50, "addresses guessing at once")
	workers := flag.Int("workers", 4, "requests in flight per address")
	tokens := flag.Bool("tokens", true, "send a fresh made-up bearer token with every guess")
	ipv6 := flag.Bool("ipv6", false, "guess from IPv6 addresses, each in its own /64")
	same64 := flag.Bool("same64", false, "guess from IPv6 addresses all in one /64 (as one home or phone may)")
	warmup := flag.Duration("warmup", 30*time.Second, "the longest warm-up: until every address has been refused once")
	duration := flag.Duration("duration", 120*time.Second, "the measured phase")
	lobbies := flag.Float64("lobbies", 10000, "open lobbies to get into")
	flag.Parse()

	length := codeLength(*base)
	space := math.Pow(float64(len(alphabet)), float64(length))
	fmt.Printf("codes of %d characters: %.4g codes; %d addresses × %d workers, made-up tokens %v, IPv6 %v, one /64 %v\n",
		length, space, *addresses, *workers, *tokens, *ipv6, *same64)

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *addresses * *workers}, Timeout: 10 * time.Second}
	var evaluated, refused, other, hits atomic.Int64
	refusedOnce := make([]atomic.Bool, *addresses)
	var measuring atomic.Bool
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for a := range *addresses {
		addr := fmt.Sprintf("198.51.%d.%d", 100+a/250, 1+a%250)
		switch {
		case *same64:
			addr = fmt.Sprintf("2001:db8:1:2::%x", a+1)
		case *ipv6:
			addr = fmt.Sprintf("2001:db8:%x:%x::1", a/65536, a%65536)
		}
		for range *workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					default:
					}
					status, scope := guess(client, *base, addr, length, *tokens)
					if status == http.StatusTooManyRequests && scope != "instance" {
						refusedOnce[a].Store(true) // its own budget is spent (or, before issue 39, its rate)
					}
					if !measuring.Load() {
						if status == http.StatusTooManyRequests {
							time.Sleep(500 * time.Millisecond)
						}
						continue
					}
					switch status {
					case http.StatusNotFound:
						evaluated.Add(1)
					case http.StatusTooManyRequests:
						refused.Add(1)
						time.Sleep(500 * time.Millisecond) // a refused guess costs the server little; do not spin
					case http.StatusCreated:
						hits.Add(1)
					default:
						other.Add(1)
					}
				}
			}()
		}
	}
	warmEnd := time.Now().Add(*warmup)
	for time.Now().Before(warmEnd) {
		all := true
		for i := range refusedOnce {
			all = all && refusedOnce[i].Load()
		}
		if all {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	measuring.Store(true)
	start := time.Now()
	time.Sleep(*duration)
	measuring.Store(false)
	elapsed := time.Since(start)
	close(stop)
	wg.Wait()

	perMinute := float64(evaluated.Load()) / elapsed.Minutes()
	fmt.Printf("measured %.0f s: %d guesses evaluated, %d refused (429), %d hits, %d other\n",
		elapsed.Seconds(), evaluated.Load(), refused.Load(), hits.Load(), other.Load())
	fmt.Printf("guesses a minute: %.1f\n", perMinute)
	if perMinute == 0 {
		fmt.Printf("expected time into any of %.0f lobbies: unbounded at this rate (no guess evaluated)\n", *lobbies)
		return
	}
	minutes := space / *lobbies / perMinute
	fmt.Printf("expected time into any of %.0f lobbies: %.4g minutes = %.1f days\n", *lobbies, minutes, minutes/60/24)
}

// codeLength creates one private lobby and reads its invite code's length (the dash left out).
func codeLength(base string) int {
	resp, err := http.Post(base+"/v1/games", "application/json", strings.NewReader(`{"game":"primed","seats":2}`))
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	var created struct {
		InviteCode string `json:"invite_code"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&created); err != nil || created.InviteCode == "" {
		log.Fatalf("creating a private lobby: %d %v", resp.StatusCode, err)
	}
	return len(strings.ReplaceAll(created.InviteCode, "-", ""))
}

// guess sends one random code from addr and returns the status, and the scope of a refusal's facts.
func guess(client *http.Client, base, addr string, length int, token bool) (int, string) {
	code := make([]byte, length)
	for i := range code {
		n, _ := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
		code[i] = alphabet[n.Int64()]
	}
	req, _ := http.NewRequest(http.MethodPost, base+"/v1/games/join",
		bytes.NewReader([]byte(`{"invite_code":"`+string(code)+`","name":"Guess"}`)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", addr)
	if token {
		req.Header.Set("Authorization", "Bearer pgs_"+rand.Text())
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, ""
	}
	defer resp.Body.Close()
	var problem struct {
		Facts struct {
			Scope string `json:"scope"`
		} `json:"facts"`
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		_ = json.NewDecoder(resp.Body).Decode(&problem)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, problem.Facts.Scope
}
