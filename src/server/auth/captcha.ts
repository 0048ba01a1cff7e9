/**
 * The sign-in calls carry the browser's captcha answer (tokenClient). Deployments plug their
 * verifier in here; with none configured every answer is accepted, as on a closed site network.
 */
export type ClientTokenVerifier = (token: string | undefined, address: string) => Promise<boolean>;

export const acceptAnyClientToken: ClientTokenVerifier = async () => true;
