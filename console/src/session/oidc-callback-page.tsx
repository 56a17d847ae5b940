export function OidcCallbackPage() {
  return <p>PLACEHOLDER</p>;
}
