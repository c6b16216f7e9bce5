/** Public URLs of Podtext's resources, shared by both adapters and mails. */
export interface Links {
  site: string;
  api: string;
  transcript(transcriptId: string): string;
  episodePage(transcriptId: string): string;
  confirm(token: string): string;
}

export function createLinks(siteUrl: string): Links {
  const api = `${siteUrl}/api/v1`;
  return {
    site: siteUrl,
    api,
    transcript: (id) => `${api}/transcripts/${id}`,
    episodePage: (id) => `${siteUrl}/t/${id}`,
    confirm: (token) => `${siteUrl}/confirm?token=${encodeURIComponent(token)}`,
  };
}
