"""Minimal Python client for the chat API, with retries on connection resets."""
import time

import requests

BASE = "https://api.example.com/"
RETRYABLE = {"E_CONN_RESET", "E_UPSTREAM_TIMEOUT"}


def chat(token, messages, model="sift-small", attempts=3):
    """Call POST v1/chat and return the answer text; retryable errors are retried with backoff."""
    for attempt in range(attempts):
        try:
            response = requests.post(
                BASE + "v1/chat",
                headers={"Authorization": f"Bearer {token}"},
                json={"model": model, "messages": messages},
                timeout=30,
            )
        except requests.ConnectionError:
            # A reset by the load balancer arrives here as ConnectionError (E_CONN_RESET).
            time.sleep(2 ** attempt)
            continue
        body = response.json()
        if response.ok:
            return body["message"]["content"]
        if body.get("code") not in RETRYABLE:
            raise RuntimeError(body.get("code"))
        time.sleep(2 ** attempt)
    raise RuntimeError("gave up after retries")
