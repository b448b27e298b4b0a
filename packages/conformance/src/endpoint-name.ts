/** How reports and findings name the endpoints of a deployment: A, B, C, … in the order given. */
export function endpointName(index: number): string {
  return index < 26 ? String.fromCharCode(65 + index) : `E${index + 1}`;
}
